<?php
// Usage: php boot.php SITE_DIR URL
// Per boot: moves the copied template site to URL and gives `admin` a fresh application password.
// Prints {"user": ..., "password": ...} on stdout.
[, $site, $url] = $argv;
require $site . '/wp-load.php';

global $wpdb;
// WP_HOME / WP_SITEURL already override these options, and update_option() would see no change,
// so write the stored values (and the URLs that wp_install() put into the sample content) directly.
$old = $wpdb->get_var("SELECT option_value FROM {$wpdb->options} WHERE option_name = 'home'");
if ($old && $old !== $url) {
	$wpdb->query($wpdb->prepare(
		"UPDATE {$wpdb->posts} SET guid = REPLACE(guid, %s, %s), post_content = REPLACE(post_content, %s, %s)",
		$old, $url, $old, $url
	));
	$wpdb->query($wpdb->prepare(
		"UPDATE {$wpdb->options} SET option_value = %s WHERE option_name IN ('home', 'siteurl')",
		$url
	));
}

$user = get_user_by('login', 'admin');
// Names must be unique per user; a retried boot replaces its earlier password.
foreach (WP_Application_Passwords::get_user_application_passwords($user->ID) as $item) {
	if ('cms-conformance' === $item['name']) {
		WP_Application_Passwords::delete_application_password($user->ID, $item['uuid']);
	}
}
$created = WP_Application_Passwords::create_new_application_password($user->ID, ['name' => 'cms-conformance']);
if (is_wp_error($created)) {
	fwrite(STDERR, 'application password: ' . $created->get_error_message() . "\n");
	exit(1);
}
// Read back from the database, not the object cache: WordPress takes an application password only
// where the site says application passwords are in use (an option) and the user holds its hash.
$in_use = $wpdb->get_var("SELECT option_value FROM {$wpdb->options} WHERE option_name = 'using_application_passwords'");
$stored = $wpdb->get_var($wpdb->prepare("SELECT meta_value FROM {$wpdb->usermeta} WHERE user_id = %d AND meta_key = '_application_passwords'", $user->ID));
if (!$in_use || !is_string($stored) || false === strpos($stored, $created[1]['uuid'])) {
	fwrite(STDERR, 'application password: not stored (in use: ' . var_export($in_use, true) . ")\n");
	exit(1);
}
echo json_encode(['user' => $user->user_login, 'password' => $created[0]]), "\n";
