<?php
/*
 * Checks the root composer.json's "php-ext" block against the rules of PIE's
 * published schema (php/pie resources/composer-json-php-ext-schema.json, JSON
 * Schema 2020-12), which Composer 2.5 does not know ("property php-ext is not
 * defined"). Prints "check_composer: ok" or one line per problem; exit 1 on any.
 *
 *   php scripts/checks/check_composer.php [path/to/composer.json]
 *
 * Encoded from the schema: extension-name string; priority integer 10..99;
 * support-zts, support-nts booleans; build-path string or null;
 * download-url-method one of composer-default, pre-packaged-source;
 * os-families / os-families-exclude non-empty arrays of windows, bsd, darwin,
 * solaris, linux, unknown, never both; configure-options an array of objects
 * with a required name matching ^[a-zA-Z0-9][a-zA-Z0-9-_]*$, needs-value
 * boolean, description string. From PIE's maintainer docs: "type" is php-ext
 * or php-ext-zend. Stricter than the schema (which allows extra keys): an
 * unknown key is reported, since it is most likely a misspelt one, and the
 * extension name must be the one dlock.c registers.
 */
$root = dirname(__DIR__, 2);
$file = $argv[1] ?? "$root/composer.json";
$errors = [];
$err = function (string $msg) use (&$errors): void {
    $errors[] = $msg;
};

$json = json_decode((string) @file_get_contents($file), true, 512, JSON_BIGINT_AS_STRING);
if (!is_array($json) || array_is_list($json)) {
    fwrite(STDOUT, "check_composer: $file is not a JSON object (" . json_last_error_msg() . ")\n");
    exit(1);
}

if (!in_array($json['type'] ?? null, ['php-ext', 'php-ext-zend'], true)) {
    $err('"type" must be "php-ext" (a PHP module) or "php-ext-zend" (a Zend extension)');
}
$php = $json['require']['php'] ?? null;
if (!is_string($php) || $php === '') {
    $err('"require" must constrain "php"');
}

$ext = $json['php-ext'] ?? null;
if (!is_array($ext) || ($ext !== [] && array_is_list($ext))) {
    $err('"php-ext" must be an object');
    $ext = [];
}

$known = ['extension-name', 'priority', 'support-zts', 'support-nts', 'build-path', 'download-url-method',
          'os-families', 'os-families-exclude', 'configure-options'];
foreach (array_diff(array_keys($ext), $known) as $k) {
    $err("php-ext: unknown key \"$k\" (known: " . implode(', ', $known) . ')');
}

if (array_key_exists('extension-name', $ext)) {
    $name = $ext['extension-name'];
    if (!is_string($name)) {
        $err('php-ext.extension-name must be a string');
    } else {
        $bare = preg_replace('/^ext-/', '', $name);
        if (!preg_match('/^[A-Za-z_][A-Za-z0-9_]*$/', $bare)) {
            $err("php-ext.extension-name \"$name\" is not an extension name");
        }
        // the name PHP will know the module by, from zend_module_entry in dlock.c
        $c = (string) @file_get_contents("$root/dlock.c");
        if (preg_match('/zend_module_entry\s+\w+\s*=\s*\{.*?"([A-Za-z0-9_]+)"/s', $c, $m) && $m[1] !== $bare) {
            $err("php-ext.extension-name \"$name\" is not the module name \"{$m[1]}\" of dlock.c");
        }
    }
}
if (array_key_exists('priority', $ext) && (!is_int($ext['priority']) || $ext['priority'] < 10 || $ext['priority'] > 99)) {
    $err('php-ext.priority must be an integer from 10 to 99');
}
foreach (['support-zts', 'support-nts'] as $k) {
    if (array_key_exists($k, $ext) && !is_bool($ext[$k])) {
        $err("php-ext.$k must be a boolean");
    }
}
if (($ext['support-zts'] ?? true) === false && ($ext['support-nts'] ?? true) === false) {
    $err('php-ext: support-zts and support-nts are both false: nothing could install it');
}
if (array_key_exists('build-path', $ext) && !is_string($ext['build-path']) && $ext['build-path'] !== null) {
    $err('php-ext.build-path must be a string or null');
}
if (array_key_exists('download-url-method', $ext)
    && !in_array($ext['download-url-method'], ['composer-default', 'pre-packaged-source'], true)) {
    $err('php-ext.download-url-method must be "composer-default" or "pre-packaged-source"');
}
$families = ['windows', 'bsd', 'darwin', 'solaris', 'linux', 'unknown'];
foreach (['os-families', 'os-families-exclude'] as $k) {
    if (!array_key_exists($k, $ext)) {
        continue;
    }
    if (!is_array($ext[$k]) || !array_is_list($ext[$k]) || count($ext[$k]) < 1) {
        $err("php-ext.$k must be a non-empty array");
        continue;
    }
    foreach ($ext[$k] as $f) {
        if (!in_array($f, $families, true)) {
            $err("php-ext.$k: \"" . (is_scalar($f) ? $f : gettype($f)) . '" is not one of ' . implode(', ', $families));
        }
    }
}
if (array_key_exists('os-families', $ext) && array_key_exists('os-families-exclude', $ext)) {
    $err('php-ext: os-families and os-families-exclude must not both be given');
}
if (array_key_exists('configure-options', $ext)) {
    $opts = $ext['configure-options'];
    if (!is_array($opts) || !array_is_list($opts)) {
        $err('php-ext.configure-options must be an array');
        $opts = [];
    }
    $m4 = (string) @file_get_contents("$root/config.m4");
    $seen = [];
    foreach ($opts as $i => $o) {
        $where = "php-ext.configure-options[$i]";
        if (!is_array($o) || ($o !== [] && array_is_list($o))) {
            $err("$where must be an object");
            continue;
        }
        foreach (array_diff(array_keys($o), ['name', 'needs-value', 'description']) as $k) {
            $err("$where: unknown key \"$k\" (known: name, needs-value, description)");
        }
        if (!isset($o['name'])) {
            $err("$where: \"name\" is required");
        } elseif (!is_string($o['name']) || !preg_match('/^[a-zA-Z0-9][a-zA-Z0-9-_]*$/', $o['name'])) {
            $err("$where.name must match ^[a-zA-Z0-9][a-zA-Z0-9-_]*\$ (no leading \"--\")");
        } else {
            if (isset($seen[$o['name']])) {
                $err("$where: \"{$o['name']}\" is listed twice");
            }
            $seen[$o['name']] = true;
            // a note, not an error: an option may be listed ahead of its config.m4
            if (preg_match('/^(with|enable)-(.+)$/', $o['name'], $mm)
                && !preg_match('/PHP_ARG_' . strtoupper($mm[1]) . '\(\[?' . preg_quote($mm[2], '/') . '\]?/', $m4)) {
                fwrite(STDOUT, "check_composer: note: --{$o['name']} is not in config.m4 (yet)\n");
            }
        }
        if (array_key_exists('needs-value', $o) && !is_bool($o['needs-value'])) {
            $err("$where.needs-value must be a boolean");
        }
        if (array_key_exists('description', $o) && !is_string($o['description'])) {
            $err("$where.description must be a string");
        }
    }
}

// the other way round: every switch config.m4 declares is offered to PIE users,
// except --enable-dlock itself (default yes; "no" would build nothing)
if (is_file("$root/config.m4") && preg_match_all('/PHP_ARG_(WITH|ENABLE)\(\[?([a-z0-9_-]+)\]?/', (string) file_get_contents("$root/config.m4"), $all, PREG_SET_ORDER)) {
    $listed = array_column(is_array($ext['configure-options'] ?? null) ? array_filter($ext['configure-options'], 'is_array') : [], 'name');
    foreach ($all as [, $kind, $name]) {
        $opt = strtolower($kind) . '-' . $name;
        if ($opt !== 'enable-dlock' && !in_array($opt, $listed, true)) {
            $err("php-ext.configure-options does not list --$opt (declared in config.m4)");
        }
    }
}

foreach ($errors as $e) {
    fwrite(STDOUT, "check_composer: $e\n");
}
if ($errors) {
    exit(1);
}
fwrite(STDOUT, "check_composer: ok ($file)\n");
