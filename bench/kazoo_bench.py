"""kazoo_bench.py: a kazoo Lock contender for the benchmark, with the protocol
of bench/worker.php. Usage: python3 kazoo_bench.py HOSTS PATH CYCLES COUNTER EVENTS"""
import sys
import time

from kazoo.client import KazooClient

hosts, path, cycles, counter, events = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
zk = KazooClient(hosts=hosts, timeout=20)
zk.start(timeout=20)
lock = zk.Lock(path, "kazoo")
for _ in range(20):  # warm up
    lock.acquire()
    lock.release()
print("ready", flush=True)
sys.stdin.readline()
out = []
for _ in range(cycles):
    t0 = time.time()
    lock.acquire()
    t1 = time.time()
    with open(counter, "r+") as f:
        v = int(f.read().strip() or 0)
        f.seek(0)
        f.truncate()
        f.write(str(v + 1))
    lock.release()
    out.append("%.6f %.6f %.6f" % (t0, t1, time.time()))
with open(events, "w") as f:
    f.write("\n".join(out) + "\n")
zk.stop()
print("done", flush=True)
