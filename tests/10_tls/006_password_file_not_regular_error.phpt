--TEST--
Option password_file must be a regular file: a FIFO (opening it blocked for ever, whatever connect_timeout), a directory or a device is a ValueError at once, without a notice
--EXTENSIONS--
dlock
posix
--FILE--
<?php
$dir = sys_get_temp_dir() . '/dlock-pwfile-' . getmypid();
mkdir($dir);
posix_mkfifo("$dir/fifo", 0600);
file_put_contents("$dir/ok", "secret\n");
foreach (['fifo' => "$dir/fifo", 'directory' => $dir, 'device' => '/dev/zero', 'file' => "$dir/ok"] as $what => $f) {
    $t = microtime(true);
    try {
        new DistributedLock('/x', ['dsn' => 'redis://127.0.0.1:1', 'password_file' => $f, 'connect_timeout' => 1]);
        echo "$what: accepted\n";
    } catch (ValueError $e) {
        echo "$what: ", str_contains($e->getMessage(), 'is not a regular file') ? 'not a regular file' : $e->getMessage(), "\n";
    }
    var_dump(microtime(true) - $t < 5);
}
unlink("$dir/fifo");
unlink("$dir/ok");
rmdir($dir);
?>
--EXPECT--
fifo: not a regular file
bool(true)
directory: not a regular file
bool(true)
device: not a regular file
bool(true)
file: accepted
bool(true)
