// CuratorBench: an Apache Curator InterProcessMutex contender for the
// benchmark, with the protocol of bench/worker.php.
// Usage: CuratorBench HOSTS PATH CYCLES COUNTER_FILE EVENTS_FILE
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorBench {
    private static double now() {
        Instant i = Instant.now();
        return i.getEpochSecond() + i.getNano() / 1e9;
    }

    public static void main(String[] args) throws Exception {
        int cycles = Integer.parseInt(args[2]);
        Path counter = Paths.get(args[3]);
        StringBuilder out = new StringBuilder();
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[0], 20000, 10000, new RetryNTimes(3, 100))) {
            client.start();
            client.blockUntilConnected();
            InterProcessMutex m = new InterProcessMutex(client, args[1]);
            for (int i = 0; i < 20; i++) { // warm up the JIT and the session
                m.acquire();
                m.release();
            }
            System.out.println("ready");
            new BufferedReader(new InputStreamReader(System.in)).readLine();
            for (int i = 0; i < cycles; i++) {
                double t0 = now();
                m.acquire();
                double t1 = now();
                int v = Integer.parseInt(new String(Files.readAllBytes(counter), StandardCharsets.UTF_8).trim());
                Files.write(counter, Integer.toString(v + 1).getBytes(StandardCharsets.UTF_8));
                m.release();
                out.append(String.format("%.6f %.6f %.6f%n", t0, t1, now()));
            }
        }
        Files.write(Paths.get(args[4]), out.toString().getBytes(StandardCharsets.UTF_8));
        System.out.println("done");
    }
}
