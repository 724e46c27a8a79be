/** Reasons items of the core document are not exercised by a request (see ./uncovered.ts). */
import type { UncoveredReason } from '../types.ts';

export const CORE_UNCOVERED: readonly UncoveredReason[] = [];
