/**
 * Faults in the extension namespaces (spamfilter/v1, contactform/v1, suite/v4): each breaks one
 * documented behaviour the way a real server might (a key of the wrong length accepted, settings
 * that are not stored, an enum that is not enforced, a toggle that is ignored, a route pattern that
 * is too permissive...). Routes are in spec names; setting keys and module slugs in bodies are
 * the target's own (translated through `req.profile`).
 */
import type { Fault } from '../proxy.ts';
import { anonymousAccessFaults } from './anonymous.ts';
import { contactformFaults } from './contactform.ts';
import { spamfilterFaults } from './spamfilter.ts';
import { suiteCoverageFaults, suiteRouteFaults } from './suite-routes.ts';
import { freshSiteFaults, suiteModuleFaults, suiteSettingsFaults } from './suite-settings.ts';

export { anonymousAccessFaults, contactformFaults, freshSiteFaults, spamfilterFaults, suiteCoverageFaults, suiteModuleFaults, suiteRouteFaults, suiteSettingsFaults };

export const extensionFaults: Fault[] = [...spamfilterFaults, ...contactformFaults, ...suiteSettingsFaults, ...suiteModuleFaults, ...suiteRouteFaults, ...suiteCoverageFaults, ...freshSiteFaults, ...anonymousAccessFaults];
