/**
 * Faults in what a server advertises (its site index). Each changes one documented fact of
 * the index the target answers with.
 */
import type { Fault, FaultRequest, FaultResponse } from './proxy.ts';

/** Rewrite the site index (GET /) of the target. `route` keys are given in spec names. */
function indexFault(id: string, title: string, caughtBy: string[], edit: (index: any, routeEntry: (specRoute: string) => any, req: FaultRequest) => void): Fault {
  return {
    id,
    title,
    caughtBy,
    response(req: FaultRequest, res: FaultResponse) {
      if (req.route !== '/' || req.method !== 'GET' || !res.json?.routes) return;
      const entry = (specRoute: string) => {
        const key = Object.keys(res.json.routes).find((k) => req.profile.toSpecRoute(k) === specRoute);
        if (!key) throw new Error(`fault ${id}: the target has no route ${specRoute}`);
        return res.json.routes[key];
      };
      edit(res.json, entry, req);
    },
  };
}

const endpoint = (entry: any, method: string) => entry.endpoints.find((e: any) => e.methods.includes(method));

export const discoveryFaults: Fault[] = [
  indexFault('disc.maximum-wrong', 'advertises per_page maximum 50 on the posts collection', ['disc.args.cms.posts.collection.list'], (_i, r) => {
    endpoint(r('/cms/v2/posts'), 'GET').args.per_page.maximum = 50;
  }),
  indexFault('disc.enum-value-missing', 'advertises the batch validation enum without "normal"', ['disc.args.batch.v1.create'], (_i, r) => {
    const arg = endpoint(r('/batch/v1'), 'POST').args.validation;
    arg.enum = arg.enum.filter((v: string) => v !== 'normal');
  }),
  indexFault('disc.default-wrong', 'advertises oEmbed maxwidth default 500', ['disc.args.oembed.embed.read'], (_i, r) => {
    endpoint(r('/oembed/1.0/embed'), 'GET').args.maxwidth.default = 500;
  }),
  indexFault('disc.allow-batch-missing', 'drops allow_batch from the post item endpoints', ['disc.allow-batch.cms.posts.item.*'], (_i, r) => {
    for (const e of r('/cms/v2/posts/(?P<id>[\\d]+)').endpoints) delete e.allow_batch;
  }),
  indexFault(
    'disc.route-missing',
    'does not advertise the page revisions collection',
    ['disc.route.cms.pages.revisions.collection', 'disc.args.cms.pages.revisions.collection.list', 'disc.param.cms.pages.revisions.collection.*'],
    (index, r, req) => {
      r('/cms/v2/pages/(?P<parent>[\\d]+)/revisions');
      const key = Object.keys(index.routes).find((k) => req.profile.toSpecRoute(k) === '/cms/v2/pages/(?P<parent>[\\d]+)/revisions')!;
      delete index.routes[key];
    },
  ),
  indexFault('disc.field-type-wrong', 'answers page_on_front as the string "0"', ['disc.index.field.page_on_front'], (index) => {
    index.page_on_front = '0';
  }),
];
