/**
 * What security.spec.ts sends without credentials to each extension route, and how it tells the
 * refusal apart (the plans): values the target can accept, the positive control, the read-back.
 */

import type { ArgSpec, EndpointSpec } from '../../schemas/types.ts';
import { fixtures, runContext, type BehaviourContext } from '../../src/sdk/behaviour.ts';
import type { Response } from '../../src/sdk/http.ts';
import { isObject } from '../../src/sdk/discovery.ts';
import { FixtureError, tagFor } from '../../src/sdk/fixtures.ts';

import {
  answered,
  brief,
  show,
  type ControlKind,
} from './lib/support.ts';
import { KEY_LOCK } from './lib/restore.ts';
import { MODULES_LOCK } from './lib/setting-owner.ts';

export const FORMS = '/contactform/v1/contact-forms';

export type Params = Record<string, unknown>;

export interface Plan {
  /** The parameters sent without credentials (and in the control, unless `control` says otherwise). */
  params?: (t: BehaviourContext, ctx: Ctx) => Promise<Params> | Params;
  /**
   * The positive control: `same` (default) the same request with credentials; `read` the route's
   * GET with credentials (where every valid write would change the site for good);
   * `names-param` the request without its required parameter, refused naming it (no harmless
   * valid request exists, not even a read).
   */
  control?: 'same' | 'read' | 'names-param';
  kind?: ControlKind;
  /** Parameters whose valid values the spec leaves open. */
  open?: string[];
  /** The path (default: support.ts concrete, harmless samples for the segments). */
  path?: (t: BehaviourContext) => Promise<string> | string;
  /** Verify by reading back: a problem, or undefined. Runs after the anonymous requests. */
  verify?: (t: BehaviourContext, ctx: Ctx) => Promise<string | undefined>;
  /** The control's parameters, where they differ from the anonymous request's. */
  controlParams?: (t: BehaviourContext, ctx: Ctx) => Params;
  /** Where another behaviour reports that the route does not exist: a 404 rest_no_route skips naming it. */
  existence?: string;
  /** After an accepted control: undo what it made. */
  cleanup?: (t: BehaviourContext, res: Response) => Promise<void>;
  /**
   * Site state another suite file writes too: held across files for the whole check
   * (src/sdk/worker-state.ts; lib/restore.ts names them). Default: the route's own state where the
   * route has a GET (routeLock).
   */
  lock?: string;
}

export interface Ctx {
  path: string;
  /** The route's GET with credentials before the anonymous requests (where the route has one). */
  before?: Response;
  params: Params;
}

// ---------------------------------------------------------------------------------------------
// values the target can accept
// ---------------------------------------------------------------------------------------------

/** The contact form of this file (tagged, deleted after the file), created on first use. */
let form: Promise<{ id: number; title: string }> | undefined;
function ownForm(): Promise<{ id: number; title: string }> {
  form ??= (async () => {
    const client = runContext().client.fork('fixtures');
    const f = fixtures();
    const title = f.label('form-security');
    const res = await client.post(FORMS, { title, context: 'save' });
    const id = res.body?.id;
    if (!answered(res) || !Number.isInteger(id)) throw new FixtureError(`POST ${FORMS} {title, context: "save"} answered ${brief(res)}, expected a created form with an integer id`, 'contactform.forms.create');
    f.track(`${FORMS}/${id}`);
    return { id, title };
  })();
  return form;
}
const formPath = async () => `${FORMS}/${(await ownForm()).id}`;

/** Read a form's title with credentials. */
async function formTitle(t: BehaviourContext, path: string): Promise<{ res: Response; title: unknown }> {
  const res = await t.client.get(path);
  return { res, title: res.body?.title };
}

/** Values of the required args of a GET the spec leaves open, as suite.routes.spec.ts sends them. */
export function requiredQuery(t: BehaviourContext, args: EndpointSpec['args']): Params {
  if (args === 'not-shown') return {};
  const out: Params = {};
  for (const [name, arg] of Object.entries(args) as [string, ArgSpec][]) {
    if (arg.required !== true || 'default' in arg) continue;
    out[name] = name === 'object_type' ? 'post' : name === 'name' ? 'blogname' : name === 'redirect_url' ? t.run.info.targetUrl : arg.type === 'integer' ? 1 : 'cmsc';
  }
  return out;
}

export const PLANS: Record<string, Plan> = {
  // --- spam filter: the key is never written with credentials (a key write is verified remotely
  // and replaces the site's key); the control is the key's read.
  'spamfilter.key.update': {
    control: 'read',
    lock: KEY_LOCK,
    params: (_t, ctx) => ({ key: typeof ctx.before?.body === 'string' && ctx.before.body.length === 12 ? ctx.before.body : 'cmscanon0000' }),
    verify: async (t, ctx) => {
      const after = await t.client.get('/spamfilter/v1/key');
      const sent = ctx.params.key;
      // Changed, and to the key sent without credentials: the anonymous write was applied.
      if (answered(after) && JSON.stringify(after.body) !== JSON.stringify(ctx.before?.body) && JSON.stringify(after.body).includes(String(sent))) {
        // Written back: the earlier key, or none.
        if (typeof ctx.before?.body === 'string' && ctx.before.body) await t.client.post('/spamfilter/v1/key', { key: ctx.before.body });
        else await t.client.delete('/spamfilter/v1/key');
        return `GET /spamfilter/v1/key answers ${show(after.body)}, was ${show(ctx.before?.body)}`;
      }
    },
  },
  'spamfilter.key.delete': {
    control: 'read',
    lock: KEY_LOCK,
    verify: async (t, ctx) => {
      const after = await t.client.get('/spamfilter/v1/key');
      if (answered(after) && JSON.stringify(after.body) !== JSON.stringify(ctx.before?.body)) {
        if (typeof ctx.before?.body === 'string' && ctx.before.body) await t.client.post('/spamfilter/v1/key', { key: ctx.before.body });
        return `GET /spamfilter/v1/key answers ${show(after.body)}, was ${show(ctx.before?.body)}`;
      }
    },
  },
  // No setting at all: a write that changes nothing (the settings' own behaviours write them meanwhile).
  'spamfilter.settings.update': { params: () => ({}) },
  // A documented interval; the route's existence is reported by spamfilter.stats.path.
  'spamfilter.stats.interval.read': { path: () => '/spamfilter/v1/stats/all', existence: 'spamfilter.stats.path' },

  // --- contact forms: the file's own form.
  'contactform.forms.collection.create': {
    params: () => ({ title: fixtures().label('form-anonymous'), context: 'save' }),
    verify: async (t, ctx) => {
      const title = String(ctx.params.title);
      const list = await t.client.get(FORMS, { query: { search: title, per_page: 100 } });
      const made = Array.isArray(list.body) ? list.body.filter((f: any) => f?.title === title) : [];
      for (const f of made) await t.client.delete(`${FORMS}/${f.id}`);
      if (made.length) return `the refused anonymous create made form ${made.map((f: any) => f.id).join(', ')} (deleted)`;
    },
    cleanup: async (t, res) => {
      if (Number.isInteger(res.body?.id)) {
        fixtures().track(`${FORMS}/${res.body.id}`);
        await t.client.delete(`${FORMS}/${res.body.id}`);
      }
    },
  },
  'contactform.forms.item.read': { path: formPath },
  'contactform.forms.item.update': {
    path: formPath,
    // Without credentials: another title (the form is this file's own); the control writes its own title back.
    params: (_t, ctx) => ({ title: `${typeof ctx.before?.body?.title === 'string' ? ctx.before.body.title : 'form'} anonymous`, context: 'save' }),
    controlParams: (_t, ctx) => ({ title: ctx.before?.body?.title, context: 'save' }),
    verify: async (t, ctx) => {
      const after = await formTitle(t, ctx.path);
      const was = ctx.before?.body?.title;
      if (answered(after.res) && after.title !== was) {
        await t.client.post(ctx.path, { title: was, context: 'save' });
        return `the form's title is ${show(after.title)}, was ${show(was)} (written back)`;
      }
    },
  },
  'contactform.forms.item.delete': {
    path: formPath,
    control: 'read',
    verify: async (t, ctx) => {
      const after = await t.client.get(ctx.path);
      if (!answered(after)) return `GET ${ctx.path} answers ${brief(after)} after the refused anonymous DELETE: the form is gone`;
    },
  },

  // --- suite: current values written back, or requests that name nothing (suite.params.spec.ts CONTROLS).
  'suite.backup-helper-script.create': { kind: 'passes-validation', params: () => ({ helper: 'cmsc-not-a-base64-script!' }) },
  'suite.backup-helper-script.delete': { kind: 'passes-validation', params: (t) => ({ path: `/${tagFor(t.run.info.runId)}-no-such-helper.php` }) },
  'suite.database-object.backup.read': { open: ['object_type'] },
  'suite.options.backup.read': { open: ['name'] },
  // A plugin the target has (GET /plugins' body is not shown; the reference implementation keys it by plugin file).
  'suite.plugin.item.read': {
    path: async (t) => {
      const list = await t.client.get('/suite/v4/plugins');
      const plugin = answered(list) && isObject(list.body) ? Object.keys(list.body as object).find((p) => /^[a-z/._-]+$/.test(p)) : undefined;
      return `/suite/v4/plugin/${plugin ?? 'cmsc-none/cmsc-none'}`;
    },
  },
  'suite.suite-ai-jwt.update': { kind: 'passes-validation' },
  'suite.marketing.survey.create': { kind: 'passes-validation' },
  'suite.tracking.settings.update': { params: () => ({}) },
  // The modules' states are stored together: held while the module checks toggle them.
  'suite.module.all.active.update': { kind: 'passes-validation', lock: MODULES_LOCK, params: () => ({ modules: [], active: true }) },
  'suite.module.item.update': { kind: 'passes-validation', params: () => ({}) },
  // A module no target has (the module behaviours toggle the real ones meanwhile).
  'suite.module.active.update': { kind: 'passes-validation', lock: MODULES_LOCK, path: () => '/suite/v4/module/cmsc-none/active', params: () => ({ active: true }) },
  'suite.module.key.check.update': { params: () => ({ api_key: '' }) },
  // No setting at all: a write that changes nothing (the settings' own behaviours write them meanwhile).
  'suite.settings.update': { params: () => ({}) },
  'suite.settings.item.update': { kind: 'passes-validation', params: () => ({}) },
  'suite.options.item.update': { kind: 'passes-validation', params: () => ({}) },
  'suite.notice.item.update': { kind: 'passes-validation', params: () => ({}) },
  'suite.plugins.collection.create': { kind: 'passes-validation', params: () => ({ slug: 'CMSC_No_Such_Plugin' }) },
  'suite.plugins.item.update': { kind: 'passes-validation', params: () => ({ status: 'active' }) },
  'suite.verify-site.item.update': { kind: 'passes-validation', params: () => ({ keyring_id: 2147480000 }) },
  'suite.recommendations.data.update': {
    // The current data written back; an empty one as the documented object (WordPress answers PHP's empty array as []).
    params: (_t, ctx) => ({ data: answered(ctx.before ?? ({ status: 0 } as Response)) && isObject(ctx.before!.body) ? ctx.before!.body : {} }),
  },
  'suite.recommendations.step.update': {
    open: ['step'],
    params: (_t, ctx) => ({ step: typeof ctx.before?.body?.step === 'string' ? ctx.before.body.step : typeof ctx.before?.body === 'string' ? ctx.before.body : 'not-started' }),
  },
  'suite.suite-crm.update': { kind: 'passes-validation', params: () => ({ extension: 'cmsc-none' }) },
  'suite.purchase-token.create': { kind: 'passes-validation', params: () => ({}) },
  'suite.seen-wc-connection-modal.update': { params: () => ({}) },
  'suite.licensing.error.update': { params: (_t, ctx) => ({ error: typeof ctx.before?.body === 'string' ? ctx.before.body : '' }) },
  'suite.licensing.attach-licenses.update': { params: () => ({ licenses: [] }) },
  // Every valid licence is stored and the notice cannot be shown again: no harmless valid request.
  'suite.licensing.set-license.update': { control: 'names-param', params: () => ({ license: 'cmsc-no-such-license' }) },
  'suite.licensing.user.activation-notice-dismiss.update': { control: 'names-param', params: () => ({ last_detached_count: 0 }) },
};
