/** Every batch behaviour (suites/core/batch*.spec.ts) fails against at least one named fault. */
import { coreFaults } from '../../faults/core/index.ts';
import { faultSuite } from './support.ts';

faultSuite('batch behaviours catch batch faults', {
  only: '^batch\\.',
  faults: coreFaults.filter((f) => f.id.startsWith('batch.')),
  lanes: 2,
  // Why each group is sound: no fault changes what another fault's named behaviours observe.
  groups: [
    // >25 items (too-many-rejected, envelope); items without method (default-post); items on
    // non-batchable routes (revision, autosave, error-items); require-all-validate batches
    // (require-all-validate, failed-validation): four disjoint kinds of request.
    ['batch.truncates-oversize', 'batch.default-method-put', 'batch.not-batchable-accepted', 'batch.require-all-validate-ignored'],
    // >25 items answered 400 (the envelope check still sees 400); bodies without requests;
    // the `failed` key of require-all-validate answers.
    ['batch.applies-refused-oversize', 'batch.requests-optional', 'batch.failed-marker-missing'],
    // unknown validation values; batches of 25 or more (only max-accepted sends exactly 25, and
    // a 400 for 26 is what too-many/envelope expect); 207 → 200 (validation.enum and
    // max-accepted accept any 2xx or expect 4xx).
    ['batch.validation-unchecked', 'batch.limit-off-by-one', 'batch.status-200'],
    // GET items (WordPress refuses those batches whole, so reversing answers changes nothing
    // for method.enum); reversed answers (multi-status has no GET item).
    ['batch.get-item-accepted', 'batch.responses-reversed'],
    // items without path (WordPress refuses those batches whatever the mode); batches without
    // validation (default-normal's items all have paths).
    ['batch.path-optional', 'batch.default-validation-wrong'],
    // object header values (refused by WordPress whatever the mode); normal/omitted validation.
    ['batch.headers-unchecked', 'batch.normal-all-or-nothing'],
    // changes every batch: alone.
    ['batch.drops-last-item'],
    // DELETE items on posts and pages aimed elsewhere: alone (several batch checks send them).
    ['batch.delete-items-ignored'],
  ],
});
