<?php
/*
 * Keeps package.xml's <contents> in step with the tree (as APCu's checkrel.sh).
 *   php scripts/checks/package_files.php --check   exit 1 when a shipped file is missing from package.xml
 *   php scripts/checks/package_files.php --write   rewrite the <contents> block from the tree
 * Shipped: the build files, dlock.c/.h/stub/arginfo, core/, tests/, examples/, the README,
 * the pages in docs/ it links to, and the dlock command (bin/dlock, role "script").
 */
$root = dirname(__DIR__, 2);
chdir($root);
$files = array_filter(explode("\n", trim((string) shell_exec('git ls-files'))), function ($f) {
    return preg_match('#^(config\.(m4|w32)|php_dlock(_int)?\.h|dlock(_[a-z_]+)?\.c|dlock\.stub\.php|dlock_arginfo\.h|README\.md|LICENSE|CREDITS|docs/[a-z_-]+\.md|core/.*\.[ch]|tests/.*|examples/.*|bin/dlock)$#', $f)
        && is_file($f);
});
sort($files);
$role = function (string $f): string {
    if (str_starts_with($f, 'tests/') || str_starts_with($f, 'core/tests/')) {
        return 'test';
    }
    if ($f === 'bin/dlock') {
        return 'script'; /* the operator's command: pecl installs it into bin_dir */
    }
    if (preg_match('#^(README\.md|LICENSE|CREDITS|docs/|examples/)#', $f)) {
        return 'doc';
    }
    return 'src';
};
$mode = $argv[1] ?? '--check';
$xml = file_get_contents('package.xml');

/* <contents> as PECL packages usually write it: one <dir> element per directory */
function render_dir(array $tree, string $name, int $depth, callable $role, string $prefix): array
{
    $pad = str_repeat('  ', $depth);
    $out = ["$pad<dir name=\"" . htmlspecialchars($name) . "\">"];
    ksort($tree['dirs']);
    foreach ($tree['dirs'] as $sub => $t) {
        array_push($out, ...render_dir($t, $sub, $depth + 1, $role, "$prefix$sub/"));
    }
    sort($tree['files']);
    foreach ($tree['files'] as $f) {
        $out[] = sprintf('%s  <file name="%s" role="%s"/>', $pad, htmlspecialchars($f), $role("$prefix$f"));
    }
    $out[] = "$pad</dir>";
    return $out;
}

/* path => role of every <file> in <contents>, with the <dir> names prefixed */
function listed(string $xml): array
{
    preg_match('#<contents>(.*)</contents>#s', $xml, $c);
    preg_match_all('#<dir name="([^"]*)">|</dir>|<file name="([^"]+)" role="([^"]+)"\s*/>#', $c[1] ?? '', $m, PREG_SET_ORDER);
    $stack = [];
    $r = [];
    foreach ($m as $t) {
        if ($t[0] === '</dir>') {
            array_pop($stack);
        } elseif (str_starts_with($t[0], '<dir')) {
            $stack[] = trim(html_entity_decode($t[1]), '/');
        } else {
            $dir = implode('/', array_filter($stack, 'strlen'));
            $r[($dir === '' ? '' : "$dir/") . html_entity_decode($t[2])] = $t[3];
        }
    }
    return $r;
}

if ($mode === '--write') {
    $tree = ['dirs' => [], 'files' => []];
    foreach ($files as $f) {
        $node = &$tree;
        $parts = explode('/', $f);
        $base = array_pop($parts);
        foreach ($parts as $d) {
            $node['dirs'][$d] ??= ['dirs' => [], 'files' => []];
            $node = &$node['dirs'][$d];
        }
        $node['files'][] = $base;
        unset($node);
    }
    $lines = array_merge(['  <contents>'], render_dir($tree, '/', 2, $role, ''), ['  </contents>']);
    $xml = preg_replace('#  <contents>.*</contents>#s', implode("\n", $lines), $xml);
    file_put_contents('package.xml', $xml);
    echo count($files), " files listed\n";
    exit(0);
}
$have = listed($xml);
$missing = [];
foreach ($files as $f) {
    if (($have[$f] ?? null) !== $role($f)) {
        $missing[] = $f;
    }
}
$stale = array_diff(array_keys($have), $files);
foreach ($missing as $f) {
    echo "package.xml lacks $f\n";
}
foreach ($stale as $f) {
    echo "package.xml lists $f, which is not in the tree\n";
}
echo $missing || $stale ? "package.xml is out of date: php scripts/checks/package_files.php --write\n" : "package.xml lists all " . count($files) . " files\n";
exit($missing || $stale ? 1 : 0);
