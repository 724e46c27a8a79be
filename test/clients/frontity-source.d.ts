/** frontity-source.js: Frontity's store and wp-source, untyped here (see there). */
export declare function createStore(pkg: unknown): any;
export declare function wpSource(): unknown;
