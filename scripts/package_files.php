<?php
/*
 * Keeps package.xml's <contents> in step with the tree (as APCu's checkrel.sh).
 *   php scripts/package_files.php --check   exit 1 when a shipped file is missing from package.xml
 *   php scripts/package_files.php --write   rewrite the <contents> block from the tree
 * Shipped: the build files, dlock.c/.h/stub/arginfo, core/, tests/, examples/, docs.
 */
$root = dirname(__DIR__);
chdir($root);
$files = array_filter(explode("\n", trim((string) shell_exec('git ls-files'))), function ($f) {
    return preg_match('#^(config\.(m4|w32)|php_dlock(_int)?\.h|dlock(_[a-z_]+)?\.c|dlock\.stub\.php|dlock_arginfo\.h|README\.md|LICENSE|CREDITS|core/.*\.[ch]|tests/.*|examples/.*)$#', $f)
        && is_file($f);
});
sort($files);
$role = function (string $f): string {
    if (str_starts_with($f, 'tests/') || str_starts_with($f, 'core/tests/')) {
        return 'test';
    }
    if (preg_match('#^(README\.md|LICENSE|CREDITS|examples/)#', $f)) {
        return 'doc';
    }
    return 'src';
};
$mode = $argv[1] ?? '--check';
$xml = file_get_contents('package.xml');
if ($mode === '--write') {
    $lines = ["  <contents>", "    <dir name=\"/\">"];
    foreach ($files as $f) {
        $lines[] = sprintf('      <file name="%s" role="%s"/>', htmlspecialchars($f), $role($f));
    }
    $lines[] = "    </dir>";
    $lines[] = "  </contents>";
    $xml = preg_replace('#  <contents>.*</contents>#s', implode("\n", $lines), $xml);
    file_put_contents('package.xml', $xml);
    echo count($files), " files listed\n";
    exit(0);
}
$missing = [];
foreach ($files as $f) {
    if (!str_contains($xml, '<file name="' . htmlspecialchars($f) . '" role="' . $role($f) . '"/>')) {
        $missing[] = $f;
    }
}
preg_match_all('#<file name="([^"]+)"#', $xml, $m);
$stale = array_diff($m[1], $files);
foreach ($missing as $f) {
    echo "package.xml lacks $f\n";
}
foreach ($stale as $f) {
    echo "package.xml lists $f, which is not in the tree\n";
}
echo $missing || $stale ? "package.xml is out of date: php scripts/package_files.php --write\n" : "package.xml lists all " . count($files) . " files\n";
exit($missing || $stale ? 1 : 0);
