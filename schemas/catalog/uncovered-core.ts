/** Reasons items of the core document are not exercised by a request (see ./uncovered.ts). */
import type { UncoveredReason } from '../types.ts';

export const CORE_UNCOVERED: readonly UncoveredReason[] = [
  {
    // batch:cms.{posts,pages}.{collection.list,item.read,revisions.*.read/list,autosaves.*.read/list}
    items: /^batch:cms\.(posts|pages)\.(collection\.list|item\.read|revisions\.collection\.list|revisions\.item\.read|autosaves\.collection\.list|autosaves\.item\.read)$/,
    reason:
      'a GET endpoint: batch items carry only POST, PUT, PATCH or DELETE (4. Endpoints › Batch), so its allow_batch cannot be exercised through the batch route',
  },
  {
    items: /^endpoint:cms\.media\.collection\.create:POST$/,
    reason: 'creating media needs a file upload whose request body the spec does not show (4. Endpoints › Media: "the POST body: not shown")',
  },
  {
    items: /^arg:cms\.(posts|pages)\.revisions\.item\.delete\.force#/,
    reason:
      'cannot be observed where the target refuses revision deletion to the user even with force=true (WordPress refuses it to every user, 403); which capability it needs is not shown (5. Authentication)',
  },
  {
    items: /^namespace\.suite\/v4\/blaze(-app)?$/,
    reason: 'registered only on a site connected to the management suite\'s remote service (WordPress.com); an offline site does not advertise it, so its index cannot be requested',
  },
];
