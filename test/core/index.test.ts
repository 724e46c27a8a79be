/** Every index behaviour (suites/core/index.spec.ts) fails against at least one named fault. */
import { coreFaults } from '../../faults/core/index.ts';
import { faultSuite } from './support.ts';

faultSuite('index behaviours catch index faults', {
  only: '^index\\.',
  faults: coreFaults.filter((f) => f.id.startsWith('index.')),
  // Why each group is sound: no fault changes what another fault's named behaviours observe.
  groups: [
    // index requests with a context (only the *.context checks send one); namespace index
    // requests with a namespace (namespace-default's explicit own namespace is removed, which
    // answers the same); gmt_offset and one route entry's namespace of the site index (the
    // root context check compares namespaces and route keys only).
    // Also page_on_front of the site index (only index.root.fields follows it) and the index of
    // cms-site-health/v1 (only index.namespaces.served reads it).
    [
      'index.context-refused',
      'index.namespace-param-ignored',
      'index.gmt-offset-out-of-range',
      'index.route-namespace-unlisted',
      'index.page-on-front-dangling',
      'index.namespace-index-missing',
    ],
    // namespace index answers: alone (every namespace-index check reads them).
    ['index.namespace-index-foreign-routes'],
    // namespace index requests without namespace: alone (routes and context send none).
    ['index.namespace-default-wrong'],
  ],
});
