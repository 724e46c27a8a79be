/**
 * Why a catalog item is not exercised by any behaviour's request (behavioural coverage). Every
 * item the suite cannot exercise has its reason here, stated once: the coverage section of the
 * report lists each behaviourally-uncovered item with the first reason that matches it, and an
 * item with no reason is a gap to close, not an excuse. Reasons are facts about the interface or
 * about what can be observed on a target (needs a remote service, cannot be observed on a used
 * site, needs an undocumented upload...), never "not written yet".
 */
import { CORE_UNCOVERED } from './uncovered-core.ts';
import { EXTENSIONS_UNCOVERED } from './uncovered-extensions.ts';

import type { UncoveredReason } from '../types.ts';

export const UNCOVERED_REASONS: readonly UncoveredReason[] = [...CORE_UNCOVERED, ...EXTENSIONS_UNCOVERED];

/** The stated reason an item is not exercised, if any. */
export function uncoveredReason(itemId: string): string | undefined {
  return UNCOVERED_REASONS.find((r) => r.items.test(itemId))?.reason;
}
