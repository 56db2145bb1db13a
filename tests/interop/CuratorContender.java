// CuratorContender: an Apache Curator InterProcessMutex contender for the
// interop test. Usage: CuratorContender <hosts> <lockPath> <counterFile> <cycles>
// Each cycle takes the lock, increments the counter file (read-modify-write)
// and releases; prints "node <name>" for the first hold and "done" at the end.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorContender {
    public static void main(String[] args) throws Exception {
        String hosts = args[0];
        String lockPath = args[1];
        Path counter = Paths.get(args[2]);
        int cycles = Integer.parseInt(args[3]);
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(hosts, 10000, 5000, new RetryNTimes(3, 100))) {
            client.start();
            client.blockUntilConnected();
            InterProcessMutex mutex = new InterProcessMutex(client, lockPath);
            Path inside = Paths.get(args[2] + ".inside");
            for (int i = 0; i < cycles; i++) {
                mutex.acquire();
                try {
                    if (i == 0) {
                        System.out.println("node " + client.getChildren().forPath(lockPath));
                    }
                    try {
                        Files.createDirectory(inside);
                    } catch (java.nio.file.FileAlreadyExistsException e) {
                        System.out.println("overlap");
                    }
                    int v = Integer.parseInt(new String(Files.readAllBytes(counter), StandardCharsets.UTF_8).trim());
                    Thread.sleep(0, 100000);
                    Files.write(counter, Integer.toString(v + 1).getBytes(StandardCharsets.UTF_8));
                    Files.delete(inside);
                } finally {
                    mutex.release();
                }
            }
            System.out.println("done");
        }
    }
}
