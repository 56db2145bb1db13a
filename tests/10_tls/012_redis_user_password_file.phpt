--TEST--
docs/security.md's stunnel recipe for Redis as written: a DSN with an ACL user and an empty password ("redis://app:@host:port") takes the password from password_file (review 20 F7: the documented "redis://app@..." was a ValueError); the user without ":" stays a ValueError
--EXTENSIONS--
dlock
--FILE--
<?php
$f = tempnam(sys_get_temp_dir(), 'dlock-pw');
file_put_contents($f, "s3cret\n");
$l = new DistributedLock('job', ['dsn' => 'redis://app:@127.0.0.1:6380', 'password_file' => $f]);
echo "documented DSN accepted\n";
try {
    new DistributedLock('job', ['dsn' => 'redis://app@127.0.0.1:6380', 'password_file' => $f]);
    echo "accepted\n";
} catch (ValueError $e) {
    echo str_contains($e->getMessage(), 'user:password@') ? "user without \":\" refused\n" : $e->getMessage() . "\n";
}
unlink($f);
?>
--EXPECT--
documented DSN accepted
user without ":" refused
