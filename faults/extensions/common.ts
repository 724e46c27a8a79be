/**
 * What the faults of the extension namespaces share: which requests write, a request's
 * parameters, and how a suite/v4 body names settings and module toggles (the target's names,
 * translated through `req.profile`).
 */
import { catalog } from '../../schemas/catalog/index.ts';
import type { Fault, FaultRequest } from '../proxy.ts';
import { noRoute } from '../kit.ts';

const WRITE = new Set(['POST', 'PUT', 'PATCH']);
export const isWrite = (req: FaultRequest) => WRITE.has(req.method);
/** The request's parameters: the JSON body of a write, else the query string. */
export function params(req: FaultRequest): Record<string, unknown> {
  if (req.method !== 'GET' && req.method !== 'DELETE' && req.json && typeof req.json === 'object') return req.json;
  return Object.fromEntries(req.query);
}
/** A request a fault changed on its way in (so that its response hook changes the answer too). */
export type Marked = FaultRequest & { marked?: string | boolean };

export const SUITE_SETTINGS = '/suite/v4/settings';
export const settingByTarget = (req: FaultRequest, key: string) => catalog.settings.find((s) => req.profile.toTargetSetting(s.name) === key);
export const isModuleKey = (req: FaultRequest, key: string) => catalog.modules.some((m) => req.profile.toTargetModule(m.slug) === key);

/** Behaviour IDs allow lowercase letters, digits, '.', '-': a setting name becomes `carousel-background-color`. */
export const idPart = (name: string): string => name.toLowerCase().replace(/[^a-z0-9-]+/g, '-');

/** A server without the namespace's index route (`GET /<namespace>` answers no route), caught by `<area>.index`. */
export function indexMissing(namespace: string, area: string): Fault {
  return {
    id: `ext.${area}.index-missing`,
    title: `has no ${namespace} namespace index route`,
    caughtBy: [`${area}.index`],
    request: (req) => (req.route === `/${namespace}` ? noRoute() : undefined),
  };
}
