<?php
/*
 * Checks the documentation: README.md, docs/*.md, each bridge's README.md,
 * bench/README.md and scripts/README.md.
 * - Links: every [text](target) and ![alt](target) whose target is not a URL
 *   must name a file or directory that exists; a #anchor must name a heading
 *   of the target Markdown file (GitHub's anchor spelling) or an explicit
 *   <a id="..."> / <a name="..."> in it. Links inside code (fenced blocks,
 *   `spans`) are not links.
 * - Snippets: a fenced block right after a line <!-- file: PATH --> must equal
 *   that file (scripts/runners/test_bridges.sh runs those files). Every
 *   other ```php block must pass `php -l` ("<?php" is put in front when
 *   missing), except a block marked <!-- signatures --> (declarations only,
 *   such as the API) or <!-- fragment --> (a piece of a larger file, such as
 *   a config array) on the line before it.
 * - With the extension loaded: the INI table of docs/api.md must match
 *   ini_get_all('dlock'), and a block marked <!-- runs --> (one that needs
 *   nothing but the extension and a ZooKeeper server) is run as written, with
 *   dlock.hosts set to DLOCK_TEST_HOSTS when that is set: it must exit 0 and
 *   print no PHP error.
 *   php -n [-d extension=modules/dlock.so] scripts/checks/check_docs.php
 * Exits 1 on any problem. -n: the INI table is compared with the built-in
 * defaults, not a php.ini's.
 */
$root = dirname(__DIR__, 2);

/* Targets another branch brings; a link to one is reported, not failed, while
 * the file is missing. Remove a line once its file has landed. */
$pending = [];

$files = array_merge(['README.md'], array_map(fn($f) => substr($f, strlen($root) + 1),
    array_merge(glob("$root/docs/*.md"), glob("$root/bridges/*/README.md"), glob("$root/bench/README.md"),
        glob("$root/scripts/README.md"))));
$problems = $notes = $runnable = [];
$links = 0;
$anchorCache = [];

/** The anchors GitHub gives the headings of a Markdown file (and explicit <a id/name>). */
function doc_anchors(string $path): array
{
    $anchors = $seen = [];
    $inFence = false;
    foreach (file($path, FILE_IGNORE_NEW_LINES) as $line) {
        if (preg_match('/^\s*(```|~~~)/', $line)) {
            $inFence = !$inFence;
            continue;
        }
        if ($inFence) {
            continue;
        }
        if (preg_match_all('/<a\s+(?:id|name)="([^"]+)"/', $line, $m)) {
            foreach ($m[1] as $a) {
                $anchors[$a] = true;
            }
        }
        if (!preg_match('/^#{1,6}\s+(.*?)\s*#*\s*$/', $line, $m)) {
            continue;
        }
        $text = preg_replace('/\[([^\]]*)\]\([^)]*\)/', '$1', $m[1]);   // a link: its text
        $slug = function_exists('mb_strtolower') ? mb_strtolower($text, 'UTF-8') : strtolower($text);   // php -n: no mbstring
        $slug = preg_replace('/[^\p{L}\p{N}\p{Mn}_\- ]/u', '', $slug);
        $slug = str_replace(' ', '-', $slug);
        $n = $seen[$slug] ?? 0;
        $seen[$slug] = $n + 1;
        $anchors[$n ? "$slug-$n" : $slug] = true;
    }
    return $anchors;
}

foreach ($files as $file) {
    $path = "$root/$file";
    $lines = file($path, FILE_IGNORE_NEW_LINES);
    $inFence = false;
    $snippet = null;   // [file it must equal, line of the marker, collected lines] while inside one
    $expect = null;    // a file marker waiting for its fenced block
    $code = null;      // [line, collected lines] of a ```php block to lint
    $signatures = false;   // the next block is marked <!-- signatures -->
    $runs = false;         // the next block is marked <!-- runs -->
    foreach ($lines as $i => $line) {
        $no = $i + 1;
        if (preg_match('/^\s*(```|~~~)\s*(\w*)/', $line, $fm)) {
            if (!$inFence && $expect) {
                $snippet = [$expect[0], $expect[1], []];
                $expect = null;
            } elseif (!$inFence && $fm[2] === 'php' && !$signatures) {
                $code = [$no, [], $runs];
            } elseif ($inFence && $code) {
                $src = implode("\n", $code[1]);
                if (!str_starts_with(ltrim($src), '<?php')) {
                    $src = "<?php\n$src";
                }
                $lint = proc_open([PHP_BINARY, '-n', '-l'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
                fwrite($pipes[0], $src);
                fclose($pipes[0]);
                $said = trim(stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]));
                if (proc_close($lint) !== 0) {
                    $problems[] = "$file:$code[0]: the php block does not pass php -l: "
                        . preg_replace('/\s+/', ' ', strtok($said, "\n"));
                }
                if ($code[2]) {
                    $runnable[] = [$file, $code[0], $src];
                }
                $code = null;
            }
            if (!$inFence) {
                $signatures = $runs = false;
            }
            if ($inFence && $snippet) {
                $want = "$root/$snippet[0]";
                if (!is_file($want)) {
                    $problems[] = "$file:$snippet[1]: <!-- file: $snippet[0] --> names no file";
                } elseif (rtrim(file_get_contents($want), "\n") !== rtrim(implode("\n", $snippet[2]), "\n")) {
                    $problems[] = "$file:$snippet[1]: the block after <!-- file: $snippet[0] --> differs from that file";
                }
                $snippet = null;
            }
            $inFence = !$inFence;
            continue;
        }
        if ($inFence) {
            if ($snippet) {
                $snippet[2][] = $line;
            }
            if ($code) {
                $code[1][] = $line;
            }
            continue;
        }
        if (preg_match('/^\s*<!--\s*(signatures|fragment)\s*-->\s*$/', $line)) {
            $signatures = true;
        }
        if (preg_match('/^\s*<!--\s*runs\s*-->\s*$/', $line)) {
            $runs = true;
        }
        if (preg_match('/^\s*<!--\s*file:\s*(\S+)\s*-->\s*$/', $line, $m)) {
            $expect = [$m[1], $no];
        } elseif ($expect && trim($line) !== '') {
            $problems[] = "$file:$expect[1]: <!-- file: $expect[0] --> is not followed by a fenced block";
            $expect = null;
        }
        $text = preg_replace('/(`+).*?\1/', '', $line);   // code spans hold no links
        if (!preg_match_all('/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/', $text, $m)) {
            continue;
        }
        foreach ($m[1] as $target) {
            $links++;
            if (preg_match('#^[a-z][a-z0-9+.-]*:#i', $target)) {
                continue;   // http:, https:, mailto: ...
            }
            [$rel, $anchor] = array_pad(explode('#', $target, 2), 2, null);
            if ($rel === '') {
                $resolved = $file;
            } else {
                $resolved = (dirname($file) === '.' ? '' : dirname($file) . '/') . rawurldecode($rel);
                /* fold "dir/../" and "./" */
                $parts = [];
                foreach (explode('/', $resolved) as $p) {
                    if ($p === '..') {
                        array_pop($parts);
                    } elseif ($p !== '.' && $p !== '') {
                        $parts[] = $p;
                    }
                }
                $resolved = implode('/', $parts);
            }
            if (!file_exists("$root/$resolved")) {
                if (isset($pending[$resolved])) {
                    $notes[] = "$file:$no: $target is not here yet ($pending[$resolved])";
                    continue;
                }
                $problems[] = "$file:$no: broken link $target ($resolved does not exist)";
                continue;
            }
            if ($anchor === null || $anchor === '') {
                continue;
            }
            if (!str_ends_with($resolved, '.md')) {
                $problems[] = "$file:$no: $target: an anchor into a file that is not Markdown cannot be checked";
                continue;
            }
            $anchorCache[$resolved] ??= doc_anchors("$root/$resolved");
            if (!isset($anchorCache[$resolved][$anchor])) {
                $problems[] = "$file:$no: broken anchor $target (no heading \"#$anchor\" in $resolved)";
            }
        }
    }
    if ($expect) {
        $problems[] = "$file:$expect[1]: <!-- file: $expect[0] --> is not followed by a fenced block";
    }
}

/* The INI table of docs/api.md against the extension, when it is loaded
 * (php -d extension=modules/dlock.so scripts/checks/check_docs.php): every dlock.*
 * directive has a row with its default and changeability, and no row names
 * a directive the extension lacks. */
if (extension_loaded('dlock')) {
    $access = [INI_ALL => 'PHP_INI_ALL', INI_SYSTEM => 'PHP_INI_SYSTEM',
               INI_PERDIR => 'PHP_INI_PERDIR', INI_USER => 'PHP_INI_USER'];
    $rows = [];
    foreach (file("$root/docs/api.md", FILE_IGNORE_NEW_LINES) as $i => $line) {
        if (preg_match('/^\|[^|]*\|\s*`(dlock\.[a-z_]+)`\s*\|\s*`([^`]*)`\s*\|\s*(\S+)\s*\|/', $line, $m)) {
            $rows[$m[1]] = [$m[2] === '""' ? '' : $m[2], $m[3], $i + 1];
        }
    }
    foreach (ini_get_all('dlock') as $name => $ini) {
        if (!isset($rows[$name])) {
            $problems[] = "docs/api.md: the INI table has no row for $name";
            continue;
        }
        [$default, $changeable, $no] = $rows[$name];
        if ($default !== (string) $ini['global_value']) {
            $problems[] = "docs/api.md:$no: $name defaults to \"$ini[global_value]\", the table says \"$default\"";
        }
        if ($changeable !== ($access[$ini['access']] ?? (string) $ini['access'])) {
            $problems[] = "docs/api.md:$no: $name is " . ($access[$ini['access']] ?? $ini['access']) . ", the table says $changeable";
        }
        unset($rows[$name]);
    }
    foreach ($rows as $name => $row) {
        $problems[] = "docs/api.md:$row[2]: the INI table names $name, which the extension does not have";
    }
    /* the blocks marked <!-- runs -->, with the extension this process loaded */
    $so = null;
    foreach (@file('/proc/self/maps', FILE_IGNORE_NEW_LINES) ?: [] as $line) {
        if (preg_match('#\s(/\S*/dlock\.so)$#', $line, $m)) {
            $so = $m[1];
        }
    }
    $hosts = getenv('DLOCK_TEST_HOSTS');
    foreach ($runnable as [$file, $no, $src]) {
        if (!$so) {
            $notes[] = "$file:$no: not run (cannot tell which dlock.so is loaded)";
            continue;
        }
        $cmd = [PHP_BINARY, '-n', '-d', "extension=$so"];
        if ($hosts) {
            array_push($cmd, '-d', "dlock.hosts=$hosts");
        }
        $run = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        fwrite($pipes[0], $src);
        fclose($pipes[0]);
        $said = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        $rc = proc_close($run);
        if ($rc !== 0 || preg_match('/(Fatal error|Warning|Notice|Deprecated):/', $said)) {
            $problems[] = "$file:$no: the block marked <!-- runs --> failed (exit $rc"
                . ($hosts ? ", ZooKeeper at $hosts" : ', dlock.hosts default') . '): '
                . preg_replace('/\s+/', ' ', trim(strtok($said ?: '-', "\n")));
        }
    }
} else {
    if ($runnable) {
        $notes[] = count($runnable) . ' blocks marked <!-- runs --> were not run (the extension is not loaded)';
    }
    $notes[] = 'the INI table of docs/api.md was not compared with the extension (not loaded: php -d extension=modules/dlock.so scripts/checks/check_docs.php)';
}

foreach (array_unique($notes) as $n) {
    echo "check_docs: note: $n\n";
}
foreach ($problems as $p) {
    echo "check_docs: $p\n";
}
printf("check_docs: %d files, %d links, %d problems\n", count($files), $links, count($problems));
exit($problems ? 1 : 0);
