<?php
// Usage: php install.php SITE_DIR [PLUGIN_FILE...]
// Installs WordPress in SITE_DIR (its wp-config.php already written) and activates the plugins.
// Run once per cached template; prints {"user_id": N} on stdout.
[, $site] = $argv;
$plugins = array_slice($argv, 2);

define('WP_INSTALLING', true);
require $site . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';

$result = wp_install('cms-conformance', 'admin', 'admin@example.com', true, '', wp_generate_password(32));

// Silently: the SQLite plugin's activation hook redirects to its settings page and exits.
// Its drop-in (wp-content/db.php) would activate it the same way on the first admin page view.
$results = [activate_plugin('sqlite-database-integration/load.php', '', false, true)];
foreach ($plugins as $plugin) {
	$results[] = activate_plugin($plugin);
}
foreach ($results as $error) {
	if (is_wp_error($error)) {
		fwrite(STDERR, 'plugin activation failed: ' . $error->get_error_message() . "\n");
		exit(1);
	}
}

// WAL lets the server's workers read while another writes; the mode is stored in the file.
(new PDO('sqlite:' . FQDB))->exec('PRAGMA journal_mode=WAL');

echo json_encode(['user_id' => (int) $result['user_id']]), "\n";
