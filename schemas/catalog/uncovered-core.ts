/** Reasons items of the core document are not exercised by a request (see ./uncovered.ts). */
import type { UncoveredReason } from './uncovered.ts';

export const CORE_UNCOVERED: readonly UncoveredReason[] = [];
