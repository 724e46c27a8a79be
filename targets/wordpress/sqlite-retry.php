<?php
/**
 * Plugin Name: cms-conformance SQLite write retry
 * Description: A write the SQLite integration could not make because another request held the database is made again.
 *
 * Installed as a must-use plugin of every embedded site (site.ts copySite). The SQLite integration
 * (wp-content/db.php) runs each query in a transaction of its own and, when SQLite answers "database
 * is locked" (SQLITE_BUSY: another request committed between this transaction's first read and its
 * write, or held the lock past the busy timeout), rolls it back and returns false: the write is
 * lost, with no error a REST client sees. An option's first write (add_option: INSERT ... ON
 * DUPLICATE KEY UPDATE, which reads the table's keys first) was lost that way in 3 of 40 tries
 * while three other requests wrote posts (Akismet's settings answered 200 with the old value).
 * MySQL, which WordPress is written for, waits for the lock instead. So such a statement is sent
 * again, each time in a transaction of its own, a few times with a growing pause.
 */
add_filter(
	'pre_query_sqlite_db',
	static function ( $result, $translator, $statement, $mode, $fetch_mode_args ) {
		static $inside = false;
		if ( $inside || null !== $result || ! preg_match( '/^\s*(INSERT|REPLACE|UPDATE|DELETE)\b/i', $statement ) ) {
			return $result;
		}
		$inside = true;
		try {
			for ( $attempt = 1; ; $attempt++ ) {
				$answer = $translator->query( $statement, $mode, ...$fetch_mode_args );
				if ( false !== $answer || $attempt >= 8 || ! preg_match( '/database (table )?is locked|SQLITE_BUSY/i', (string) $translator->get_error_message() ) ) {
					// An answer of null would make the integration run the statement once more.
					return null === $answer ? 0 : $answer;
				}
				usleep( 25000 * $attempt );
			}
		} finally {
			$inside = false;
		}
	},
	10,
	5
);
