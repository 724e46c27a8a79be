/**
 * Faults in batch, oEmbed, the index routes and authentication (core parts 1, 4, 5, 8, 9).
 * Each breaks one documented (or reference) behaviour of a real target so that the suites
 * under suites/core/ can be shown to catch it.
 *
 * One file per part: batch.ts, oembed.ts, site-index.ts (the index routes), auth.ts.
 */
import type { Fault } from '../proxy.ts';
import { authFaults } from './auth.ts';
import { batchFaults } from './batch.ts';
import { indexFaults } from './site-index.ts';
import { oembedFaults } from './oembed.ts';

export const coreFaults: Fault[] = [...batchFaults, ...oembedFaults, ...indexFaults, ...authFaults];
