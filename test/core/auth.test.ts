/** Every authentication and security behaviour (suites/core/auth.spec.ts) fails against at least one named fault. */
import { coreFaults } from '../../faults/core/index.ts';
import { faultSuite } from './support.ts';

faultSuite('authentication behaviours catch authentication faults', {
  only: '^auth\\.',
  faults: coreFaults.filter((f) => f.id.startsWith('auth.')),
  // Why each group is sound: no fault changes what another fault's named behaviours observe.
  groups: [
    // anonymous writes; unknown credentials; anonymous context=edit reads; authenticated PUTs
    // (only credentials.write-accepted sends one); non-REST pages. The state checks re-read
    // with the configured credentials, which none of these faults touches.
    ['auth.anonymous-write-accepted', 'auth.wrong-password-accepted', 'auth.edit-context-anonymous', 'auth.credentials-ignored-on-put', 'auth.authorization-page-missing'],
    // every anonymous post read (context=edit included): alone.
    ['auth.unpublished-visible-anonymously'],
  ],
});
