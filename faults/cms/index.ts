/**
 * Faults in the core content namespace (cms/v2: posts, pages, revisions, autosaves, media).
 * Each breaks one documented (or WordPress) behaviour of a real target so that the suites
 * under suites/cms/ can be shown to catch it: a server that clamps per_page instead of
 * rejecting it, ignores a filter, leaks raw fields, ignores force, accepts anonymous writes ...
 *
 * Families with one fault per argument:
 * - `cms.arg-rejected.<arg>`: refuses documented values of one query argument (400);
 * - `cms.filter-ignored.<arg>`: drops one filter from post and page listings (as a server
 *   that does not implement it would).
 *
 * Faults see routes in spec names (the proxy translates through the target's profile).
 */
import type { Fault } from '../proxy.ts';
import { authFaults } from './auth.ts';
import { contextFaults } from './context.ts';
import { deleteFaults } from './deletion.ts';
import { deviationFaults } from './deviations.ts';
import { fieldFaults, issue26Faults } from './fields.ts';
import { filterFaults } from './filters.ts';
import { cmsModelFaults } from './model.ts';
import { combinationFaults } from './combinations.ts';
import { queryFaults } from './query.ts';
import { cmsStateFaults } from './state.ts';
import { writeFaults } from './writes.ts';

export { cmsModelFaults };

export const cmsFaults: Fault[] = [...queryFaults, ...filterFaults, ...contextFaults, ...authFaults, ...writeFaults, ...deleteFaults, ...fieldFaults, ...issue26Faults, ...deviationFaults, ...cmsStateFaults, ...combinationFaults];
