<?php
/*
 * Shared test helpers: the server under test, a root path of its own per test,
 * forked helper processes with a watchdog and a line protocol over a socket
 * pair, and the ZooKeeper four-letter words mntr and cons.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests;

use PHPUnit\Framework\TestCase;

abstract class DlockTestCase extends TestCase
{
    /** @var list<array{pid: int, sock: resource}> */
    private array $children = [];

    protected static function hosts(): string
    {
        return (string) getenv('DLOCK_TEST_HOSTS');
    }

    /** Data provider: every backend the bridges run on. */
    public static function backends(): array
    {
        return ['zookeeper' => ['zookeeper'], 'redis' => ['redis'], 'postgres' => ['postgres'], 'mysql' => ['mysql']];
    }

    /**
     * dlock options that select $backend's test server (DLOCK_TEST_HOSTS,
     * DLOCK_TEST_REDIS, DLOCK_TEST_PG, DLOCK_TEST_MYSQL, as scripts/test.sh
     * exports them); fails the test when the server is not given.
     */
    protected function backendOptions(string $backend): array
    {
        $var = ['zookeeper' => 'DLOCK_TEST_HOSTS', 'redis' => 'DLOCK_TEST_REDIS', 'postgres' => 'DLOCK_TEST_PG',
                'mysql' => 'DLOCK_TEST_MYSQL'][$backend];
        $v = (string) getenv($var);
        if ($v === '') {
            $this->fail("set $var (scripts/test.sh starts every test server and exports it)");
        }
        if ($backend === 'zookeeper') {
            return ['hosts' => $v];
        }
        return ['dsn' => $backend === 'redis' && !str_contains($v, '://') ? 'redis://' . $v : $v];
    }

    /** The test's name without its data set (PHPUnit 10+ name(), 9 getName()). */
    protected function testName(): string
    {
        return method_exists($this, 'name') ? $this->name() : $this->getName(false);
    }

    /** A ZooKeeper root of this test's own: /dlock-tests/bridges/<test>-<pid>-<n>. */
    protected function root(): string
    {
        static $n = 0;
        $name = preg_replace('/[^A-Za-z0-9_]+/', '_', static::class . '_' . $this->testName());
        return '/dlock-tests/bridges/' . substr($name, -80) . '-' . getmypid() . '-' . (++$n);
    }

    /**
     * Runs $body in a forked child, which gets a socket to talk to the test
     * with send()/expect(). The child is SIGKILLed after $watchdog seconds at
     * the latest, so a deadlock fails the test instead of hanging it.
     *
     * @param callable(resource): void $body
     * @return resource the parent's end of the socket pair
     */
    protected function fork(callable $body, int $watchdog = 30)
    {
        [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        $pid = pcntl_fork();
        if ($pid === -1) {
            $this->fail('fork failed');
        }
        if ($pid === 0) {
            fclose($mine);
            pcntl_alarm($watchdog);
            // the child leaves by SIGKILL: a release must have reached the
            // server by then, not be queued behind it (dlock.async_release)
            ini_set('dlock.async_release', '0');
            $code = 0;
            try {
                $body($theirs);
            } catch (\Throwable $e) {
                @fwrite($theirs, 'error ' . get_class($e) . ': ' . str_replace("\n", ' ', $e->getMessage()) . "\n");
                $code = 1;
            }
            // leave without PHPUnit's shutdown handlers (they belong to the parent)
            fflush($theirs);
            posix_kill(getmypid(), $code ? SIGTERM : SIGKILL);
            exit($code);
        }
        fclose($theirs);
        $this->children[] = ['pid' => $pid, 'sock' => $mine];
        return $mine;
    }

    /** The pid of the child fork() started last. */
    protected function lastChildPid(): int
    {
        return $this->children[count($this->children) - 1]['pid'];
    }

    /** Sends one line. */
    protected static function send($sock, string $line): void
    {
        fwrite($sock, $line . "\n");
    }

    /** Reads one line within $timeout seconds and returns it (fails the test on timeout). */
    protected function expect($sock, float $timeout = 10.0): string
    {
        $r = [$sock];
        $w = $e = null;
        $sec = (int) $timeout;
        if (stream_select($r, $w, $e, $sec, (int) (($timeout - $sec) * 1e6)) < 1) {
            $this->fail("no answer from the child within {$timeout}s");
        }
        $line = fgets($sock);
        if ($line === false) {
            $this->fail('the child went away without answering');
        }
        $line = rtrim($line, "\n");
        if (str_starts_with($line, 'error ')) {
            $this->fail('child: ' . $line);
        }
        return $line;
    }

    /** Line read by a child, blocking (the watchdog bounds it). */
    protected static function childRead($sock): string
    {
        return rtrim((string) fgets($sock), "\n");
    }

    protected function tearDown(): void
    {
        foreach ($this->children as $c) {
            posix_kill($c['pid'], SIGKILL);
            posix_kill($c['pid'], SIGCONT);
            pcntl_waitpid($c['pid'], $status);
            @fclose($c['sock']);
        }
        $this->children = [];
    }

    /** Output of a four-letter word to the first server of DLOCK_TEST_HOSTS. */
    protected static function fourLetterWord(string $word): string
    {
        $first = explode(',', explode('/', self::hosts())[0])[0];
        $s = @stream_socket_client('tcp://' . $first, $errno, $errstr, 5.0);
        if ($s === false) {
            throw new \RuntimeException("cannot reach $first: $errstr");
        }
        fwrite($s, $word);
        stream_set_timeout($s, 5);
        $out = stream_get_contents($s);
        fclose($s);
        return (string) $out;
    }

    /** zk_packets_received from mntr: requests (and pings) the server has received. */
    protected static function packetsReceived(): int
    {
        if (!preg_match('/^zk_packets_received\s+(\d+)/m', self::fourLetterWord('mntr'), $m)) {
            throw new \RuntimeException('mntr gave no zk_packets_received (is mntr in 4lw.commands.whitelist?)');
        }
        return (int) $m[1];
    }

    /** The client sessions' connections from cons: "ip:port" => packets received from it. */
    protected static function connections(): array
    {
        // a connection without a sid is a four-letter word's, e.g. this one
        preg_match_all('#/([0-9.:]+)\[\d+\]\(queued=\d+,recved=(\d+),sent=\d+,sid=#', self::fourLetterWord('cons'), $m, PREG_SET_ORDER);
        $r = [];
        foreach ($m as $c) {
            $r[$c[1]] = (int) $c[2];
        }
        return $r;
    }
}
