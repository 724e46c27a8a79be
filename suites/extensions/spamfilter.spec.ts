/**
 * spamfilter/v1 (extensions part 2 › Spam filter key / settings / statistics, part 4 › Spam
 * filter): the 12-character key (other lengths refused and not stored; GET and DELETE work; a
 * 12-character key accepted where the server can verify it), the two boolean settings, and the
 * statistics interval as query parameter and as path segment.
 *
 * The key and the settings are site state: each behaviour reads them first and writes the
 * original back afterwards, also when it fails. They run one at a time; the statistics are
 * read-only and run concurrently.
 */
import { routeById } from '../../schemas/catalog/index.ts';
import { behaviour } from '../../src/sdk/behaviour.ts';
import { SPAMFILTER, expectAnswered } from './lib/support.ts';
import { sharesSpamfilterStorage } from './lib/settings-route.ts';
import { declareSettingBehaviours } from './lib/settings.ts';
import { declareReadDefault } from './lib/suite-defaults.ts';
import { declareStatsBehaviours } from './lib/spamfilter-stats.ts';
import { declareKeyBehaviours } from './lib/spamfilter-key.ts';
import { declareSpamSettingBehaviours } from './lib/spamfilter-settings.ts';

behaviour(
  {
    id: 'spamfilter.index',
    level: 'MUST',
    namespace: SPAMFILTER,
    route: '/spamfilter/v1',
    title: 'GET /spamfilter/v1 (the namespace index) answers',
    spec: routeById('spamfilter.index').spec,
    covers: ['endpoint:spamfilter.index.read', 'namespace.spamfilter/v1'],
  },
  async (t) => {
    t.requireNamespace(SPAMFILTER);
    expectAnswered(t, await t.client.get('/spamfilter/v1'), 'GET /spamfilter/v1');
  },
  { concurrent: true },
);

// The statistics: read-only, concurrent.
declareStatsBehaviours();

// The key, then the settings: site state, one behaviour at a time.
declareKeyBehaviours();
declareSpamSettingBehaviours();

// suite/v4 settings stored with the spam filter's: here, so that they never run alongside the above.
declareSettingBehaviours(sharesSpamfilterStorage, { concurrent: false });

// The default of api_key of the suite's key check: the answer without it may depend on the stored
// key, which this file's key behaviours change and set back (lib/suite-defaults.ts).
declareReadDefault('api-key', { concurrent: false });
