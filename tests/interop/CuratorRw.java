// CuratorRw: an Apache Curator InterProcessReadWriteLock contender driven by
// stdin, for the read-write interop test. Usage: CuratorRw <hosts> <lockPath>
// Commands (one per line): "read" / "write" try that lock for 200 ms and print
// "<kind>: got" or "<kind>: busy"; "release" releases what is held; "quit".
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorRw {
    public static void main(String[] args) throws Exception {
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[0], 10000, 5000, new RetryNTimes(3, 100))) {
            client.start();
            client.blockUntilConnected();
            InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, args[1]);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
            InterProcessMutex held = null;
            System.out.println("ready");
            String line;
            while ((line = in.readLine()) != null && !line.equals("quit")) {
                if (line.equals("release")) {
                    if (held != null) {
                        held.release();
                        held = null;
                    }
                    System.out.println("released");
                    continue;
                }
                InterProcessMutex m = line.equals("read") ? rw.readLock() : rw.writeLock();
                boolean got = m.acquire(200, TimeUnit.MILLISECONDS);
                if (got) {
                    held = m;
                }
                System.out.println(line + ": " + (got ? "got" : "busy"));
            }
        }
    }
}
