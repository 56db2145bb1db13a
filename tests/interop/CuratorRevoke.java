// CuratorRevoke: Apache Curator's side of the revocation interop test.
// Usage: CuratorRevoke revoke <hosts> <lockPath>
//          Revoker.attemptRevoke() on the holder's node of the mutex at lockPath
//          (prints "revoked"), then takes the mutex (prints "acquired" once the
//          holder let go), releases it and prints "done".
//        CuratorRevoke hold <hosts> <lockPath>
//          takes a revocable InterProcessMutex (prints "held"), waits for its
//          RevocationListener (prints "revocation requested"), releases
//          (prints "released").
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.Revoker;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorRevoke {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String hosts = args[1];
        String lockPath = args[2];
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(hosts, 10000, 5000, new RetryNTimes(3, 100))) {
            client.start();
            client.blockUntilConnected();
            InterProcessMutex mutex = new InterProcessMutex(client, lockPath);
            if (mode.equals("revoke")) {
                List<String> nodes = List.copyOf(mutex.getParticipantNodes());
                if (nodes.isEmpty()) {
                    System.out.println("no holder");
                    return;
                }
                Revoker.attemptRevoke(client, nodes.get(0));
                System.out.println("revoked");
                System.out.println(mutex.acquire(30, TimeUnit.SECONDS) ? "acquired" : "not acquired");
                mutex.release();
                System.out.println("done");
            } else {
                CountDownLatch asked = new CountDownLatch(1);
                mutex.makeRevocable(m -> asked.countDown());
                mutex.acquire();
                System.out.println("held");
                System.out.println(asked.await(60, TimeUnit.SECONDS) ? "revocation requested" : "no revocation");
                mutex.release();
                System.out.println("released");
            }
        }
    }
}
