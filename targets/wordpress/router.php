<?php
// Router for `php -S`: existing files (and *.php scripts) are served by the built-in server,
// everything else goes to index.php. Without it, request paths containing a dot 404.
$root = $_SERVER['DOCUMENT_ROOT'];
$path = urldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?? '/');

// The boot's ready check asks which site this server serves (targets/wordpress/index.ts,
// servedSiteId): another server may hold the port it was given.
if ($path === '/.cms-conformance-site') {
	header('Content-Type: text/plain');
	echo substr(hash('sha256', $root), 0, 32);
	return true;
}

// Apache's .htaccess would hide these (the SQLite database is wp-content/database/.ht.sqlite).
if (preg_match('#/\.ht#', $path)) {
	http_response_code(403);
	return true;
}
if (is_file($root . $path) || is_file(rtrim($root . $path, '/') . '/index.php')) {
	return false;
}
$_SERVER['SCRIPT_NAME'] = $_SERVER['PHP_SELF'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $root . '/index.php';
chdir($root);
require $root . '/index.php';
