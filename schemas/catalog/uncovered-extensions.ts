/** Reasons items of the extensions document are not exercised by a request (see ./uncovered.ts). */
import type { UncoveredReason } from '../types.ts';

export const EXTENSIONS_UNCOVERED: readonly UncoveredReason[] = [];
