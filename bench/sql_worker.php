<?php
/*
 * sql_worker.php: one contender process of the SQL benchmark (bench/sql.php),
 * and the PDO helper that sets up the servers and reads their counters.
 * KIND is the lock under test:
 *   dlock           DistributedLock on the postgres:// or mysql:// DSN (the server
 *                   waits: pg_advisory_lock / GET_LOCK; released at request end)
 *   dlock-token     the same, and getFencingToken() every cycle (the token row's
 *                   write, one more round trip); tokens must strictly increase
 *   pdo-poll        the polling loop: pg_try_advisory_lock(k) / GET_LOCK(name, 0);
 *                   on failure usleep((100 + random_int(-10, 10)) ms) and retry,
 *                   the retry of Symfony Lock::acquire(true) on a store that cannot
 *                   block (symfony/lock 5.4 Lock.php); unlock pg_advisory_unlock(k)
 *                   / RELEASE_LOCK(name)
 *   pdo-block       the hand-written blocking advisory lock: pg_advisory_lock(k) /
 *                   GET_LOCK(name, 31536000); unlock as above
 *   pdo-for-update  BEGIN; SELECT name FROM bench_locks WHERE name = ? FOR UPDATE;
 *                   critical section; COMMIT (a one-row table, made by "setup")
 * The dlock processes run `php -n -d extension=dlock.so`, the PDO ones
 * `php -n -d extension=pdo -d extension=pdo_pgsql` or
 * `php -n -d extension=pdo -d extension=mysqlnd -d extension=pdo_mysql`.
 * PDO statements are prepared once per process (its best case).
 *
 * Roles (DSN is postgres://u:p@host:port/db or mysql://u:p@host:port/db):
 *   cycle KIND DSN NAME CYCLES COUNTER EVENTS
 *       bench/worker.php's protocol: one warm-up cycle, prints "ready", waits for
 *       a line on stdin, runs CYCLES acquire / counter read-modify-write / release
 *       cycles, writes "t_request t_acquired t_released" per cycle to EVENTS,
 *       prints "done". A lock call that does not say it got or freed the lock
 *       exits non-zero (the counter then comes out short). With the environment
 *       variable DLOCK_BENCH_THINK_MS, each cycle then works that long outside
 *       the lock (usleep), as a request does between its locks.
 *   setup DSN NAME...
 *       (PDO) creates the table bench_locks (name primary key) if missing and a
 *       row for every NAME (pdo-for-update locks it)
 *   info DSN
 *       (PDO) prints "version V" and "settings S": the server's durability settings
 *   stats DSN
 *       (PDO) prints what the server counted so far, once no other session of
 *       this database is left (a backend flushes its counts as it exits):
 *       PostgreSQL "xacts N" (xact_commit + xact_rollback of this database in
 *       pg_stat_database), MariaDB "statements N" (SHOW GLOBAL STATUS
 *       'Questions'). A stats call's own statements are in the next call's
 *       figure: sql.php measures that overhead with two calls in a row.
 */

/** postgres://u:p@h:port/db -> ['pg' | 'my', PDO dsn, user, password]. */
function pdo_target(string $dsn): array
{
    $u = parse_url($dsn);
    $server = match ($u['scheme'] ?? '') { 'postgres', 'postgresql' => 'pg', 'mysql' => 'my' };
    $db = ltrim($u['path'] ?? '', '/');
    $pdo = ($server === 'pg' ? 'pgsql' : 'mysql') . ":host={$u['host']};port={$u['port']};dbname=$db";
    return [$server, $pdo, rawurldecode($u['user'] ?? ''), rawurldecode($u['pass'] ?? '')];
}

function pdo_connect(string $dsn): array
{
    [$server, $pdoDsn, $user, $pass] = pdo_target($dsn);
    $pdo = new PDO($pdoDsn, $user, $pass, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    return [$server, $pdo];
}

/** The bigint advisory key of a name for the PDO contenders (any fixed key would do). */
function pg_key(string $name): int
{
    return (int) hexdec(substr(hash('sha256', $name), 0, 15));
}

abstract class BenchLock
{
    abstract public function acquire(): void;

    abstract public function release(): void;
}

final class DlockLock extends BenchLock
{
    private DistributedLock $l;
    private int $last = 0;

    public function __construct(string $dsn, string $name, private bool $token = false)
    {
        $this->l = new DistributedLock($name, ['dsn' => $dsn]);
    }

    public function acquire(): void
    {
        $this->l->acquire();
        if ($this->token) {
            $t = $this->l->getFencingToken();
            if ($t <= $this->last) {
                fwrite(STDERR, "token $t after $this->last\n");
                exit(1);
            }
            $this->last = $t;
        }
    }

    public function release(): void
    {
        $this->l->release();
    }
}

/** pdo-poll and pdo-block: a session advisory lock taken by hand. */
final class PdoAdvisoryLock extends BenchLock
{
    private PDOStatement $lock;
    private PDOStatement $unlock;
    private string $server;

    public function __construct(string $dsn, private string $name, private bool $block)
    {
        [$server, $pdo] = pdo_connect($dsn);
        if ($server === 'pg') {
            $k = pg_key($name);
            $this->lock = $pdo->prepare($block ? "SELECT pg_advisory_lock($k)::text" : "SELECT pg_try_advisory_lock($k)::int");
            $this->unlock = $pdo->prepare("SELECT pg_advisory_unlock($k)::int");
        } else {
            $this->lock = $pdo->prepare($block ? 'SELECT GET_LOCK(?, 31536000)' : 'SELECT GET_LOCK(?, 0)');
            $this->unlock = $pdo->prepare('SELECT RELEASE_LOCK(?)');
        }
        $this->server = $server;
    }

    private function ask(PDOStatement $s): string
    {
        $s->execute($this->server === 'pg' ? [] : [$this->name]);
        $v = $s->fetchColumn();
        $s->closeCursor();
        return (string) $v;
    }

    public function acquire(): void
    {
        if ($this->block) {
            /* pg_advisory_lock returns void ('' as text); GET_LOCK 1 */
            $v = $this->ask($this->lock);
            if ($v !== ($this->server === 'pg' ? '' : '1')) {
                throw new RuntimeException("blocking lock returned '$v'");
            }
            return;
        }
        while (($v = $this->ask($this->lock)) !== '1') {
            if ($v !== '0') {
                throw new RuntimeException("try lock returned '$v'"); /* GET_LOCK's NULL: an error */
            }
            usleep((100 + random_int(-10, 10)) * 1000);
        }
    }

    public function release(): void
    {
        if (($v = $this->ask($this->unlock)) !== '1') {
            throw new RuntimeException("unlock returned '$v'");
        }
    }
}

/** pdo-for-update: a row lock held by the transaction. */
final class PdoForUpdateLock extends BenchLock
{
    private PDO $pdo;
    private PDOStatement $select;

    public function __construct(string $dsn, private string $name)
    {
        [, $this->pdo] = pdo_connect($dsn);
        $this->select = $this->pdo->prepare('SELECT name FROM bench_locks WHERE name = ? FOR UPDATE');
    }

    public function acquire(): void
    {
        $this->pdo->beginTransaction();
        $this->select->execute([$this->name]);
        $v = $this->select->fetchColumn();
        $this->select->closeCursor();
        if ($v !== $this->name) {
            throw new RuntimeException("no bench_locks row '{$this->name}' (run setup)");
        }
    }

    public function release(): void
    {
        $this->pdo->commit();
    }
}

function make_lock(string $kind, string $dsn, string $name): BenchLock
{
    return match ($kind) {
        'dlock' => new DlockLock($dsn, $name),
        'dlock-token' => new DlockLock($dsn, $name, true),
        'pdo-poll' => new PdoAdvisoryLock($dsn, $name, false),
        'pdo-block' => new PdoAdvisoryLock($dsn, $name, true),
        'pdo-for-update' => new PdoForUpdateLock($dsn, $name),
    };
}

function line(string $s): void
{
    echo "$s\n";
    fflush(STDOUT);
}

$role = $argv[1] ?? '';
switch ($role) {
    case 'cycle':
        [, , $kind, $dsn, $name, $cycles, $counter, $events] = $argv;
        $lock = make_lock($kind, $dsn, $name);
        $think = (int) (getenv('DLOCK_BENCH_THINK_MS') ?: 0) * 1000;
        $lock->acquire(); /* warm up: connection, statements, token row */
        $lock->release();
        line('ready');
        fgets(STDIN);
        $t = [];
        for ($i = 0; $i < (int) $cycles; $i++) {
            $t0 = microtime(true);
            $lock->acquire();
            $t1 = microtime(true);
            $v = (int) file_get_contents($counter);
            file_put_contents($counter, (string) ($v + 1));
            $lock->release();
            $t[] = sprintf("%.6f %.6f %.6f", $t0, $t1, microtime(true));
            if ($think) {
                usleep($think);
            }
        }
        file_put_contents($events, implode("\n", $t) . "\n");
        line('done');
        break;
    case 'setup':
        [$server, $pdo] = pdo_connect($argv[2]);
        $pdo->exec('CREATE TABLE IF NOT EXISTS bench_locks (name varchar(190) PRIMARY KEY)');
        $ins = $pdo->prepare($server === 'pg' ? 'INSERT INTO bench_locks VALUES (?) ON CONFLICT DO NOTHING'
            : 'INSERT IGNORE INTO bench_locks VALUES (?)');
        foreach (array_slice($argv, 3) as $name) {
            $ins->execute([$name]);
        }
        line('ok');
        break;
    case 'info':
        [$server, $pdo] = pdo_connect($argv[2]);
        if ($server === 'pg') {
            $names = ['fsync', 'synchronous_commit', 'full_page_writes'];
            line('version ' . $pdo->query('SHOW server_version')->fetchColumn());
            $v = array_map(fn($n) => "$n=" . $pdo->query("SHOW $n")->fetchColumn(), $names);
        } else {
            $names = ['innodb_flush_log_at_trx_commit', 'log_bin', 'sync_binlog'];
            line('version ' . $pdo->query('SELECT VERSION()')->fetchColumn());
            $v = array_map(fn($n) => "$n=" . $pdo->query("SELECT @@GLOBAL.$n")->fetchColumn(), $names);
        }
        line('settings ' . implode(', ', $v));
        break;
    case 'stats':
        [$server, $pdo] = pdo_connect($argv[2]);
        $others = $pdo->prepare($server === 'pg'
            ? 'SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()'
            : 'SELECT count(*) FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND ID <> CONNECTION_ID()');
        for ($deadline = microtime(true) + 3; microtime(true) < $deadline; usleep(10000)) {
            $others->execute();
            if ((int) $others->fetchColumn() === 0) {
                break;
            }
        }
        if ($server === 'pg') {
            $pdo->query('SELECT pg_stat_clear_snapshot()');
            line('xacts ' . $pdo->query('SELECT xact_commit + xact_rollback FROM pg_stat_database '
                . 'WHERE datname = current_database()')->fetchColumn());
        } else {
            $row = $pdo->query("SHOW GLOBAL STATUS LIKE 'Questions'")->fetch(PDO::FETCH_NUM);
            line('statements ' . ((int) $row[1] - 1));
        }
        break;
    default:
        fwrite(STDERR, "usage: see the header of " . __FILE__ . "\n");
        exit(2);
}
