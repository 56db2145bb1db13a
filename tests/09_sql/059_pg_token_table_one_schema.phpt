--TEST--
SQL (postgres): the token table is public.dlock_tokens whatever a role's search_path says: two roles, one with a schema of its own name ("$user" comes first in the default search_path) and one with ALTER ROLE ... SET search_path, taking one lock in turn get strictly increasing tokens from one table; a role that cannot create the missing table gets an exception naming the table and the grant (review 20 F1)
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
$b = 'postgres';
$port = dlt_sql_own_port($b, 73);
$dsn = dlt_sql_own_start($b, 73);
$tmp = getenv('TMPDIR') ?: '/tmp';
$su = new PDO("pgsql:host=$tmp/dlock-pg-$port;port=$port;dbname=dlock", 'postgres', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
foreach ([
    "CREATE ROLE own LOGIN PASSWORD 'ownpw'", "CREATE SCHEMA own AUTHORIZATION own",
    "CREATE ROLE alt LOGIN PASSWORD 'altpw'", "CREATE SCHEMA s2 AUTHORIZATION alt",
    "ALTER ROLE alt SET search_path = s2", "CREATE ROLE nocreate LOGIN PASSWORD 'ncpw'",
    "GRANT CONNECT ON DATABASE dlock TO own, alt, nocreate",
] as $q) {
    $su->exec($q);
}
$as = fn(string $user, string $pw) => str_replace('dlock:dlock@', "$user:$pw@", $dsn);
$name = 't58-tokens';

/* a role without CREATE on public meets the missing table first */
$msg = '';
[$cls] = dlt_throws(function () use ($as, $name) {
    (new DistributedLock($name, ['dsn' => $as('nocreate', 'ncpw'), 'connect_timeout' => 10]))->acquire(5);
}, $msg);
dlt_check($cls !== 'none' && str_contains($msg, 'no table public.dlock_tokens') && str_contains($msg, 'GRANT SELECT, INSERT, UPDATE ON public.dlock_tokens TO this role'),
    'a role that cannot create the missing table: an exception naming public.dlock_tokens and the grant', [$cls, $msg]);
dlt_check(!str_contains($msg, 'ncpw'), 'the message does not show the password');

$l = new DistributedLock($name, ['dsn' => $dsn, 'connect_timeout' => 10]);
dlt_check($l->acquire(5), 'the database owner takes it (and creates the table)');
$l->release();
$su->exec('GRANT SELECT, INSERT, UPDATE ON public.dlock_tokens TO own, alt');
$tokens = [];
foreach (range(1, 3) as $i) {
    foreach ([$dsn, $as('own', 'ownpw'), $as('alt', 'altpw')] as $d) {
        $l = new DistributedLock($name, ['dsn' => $d, 'connect_timeout' => 10]);
        if (!$l->acquire(5)) {
            throw new RuntimeException("not acquired");
        }
        $tokens[] = $l->getFencingToken();
        $l->release();
        $l = null;
    }
}
$ok = true;
for ($i = 1; $i < count($tokens); $i++) {
    $ok = $ok && $tokens[$i] > $tokens[$i - 1];
}
dlt_check($ok, 'tokens strictly increase across the three roles in turn', $tokens);
$left = $su->query("SELECT string_agg(n.nspname, ',') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'dlock_tokens'")->fetchColumn();
dlt_check($left === 'public', 'one token table, in public', $left);
$su = null;
dlt_sql_own_stop($b, 73);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_own_stop('postgres', 73);
?>
--EXPECT--
a role that cannot create the missing table: an exception naming public.dlock_tokens and the grant
the message does not show the password
the database owner takes it (and creates the table)
tokens strictly increase across the three roles in turn
one token table, in public
