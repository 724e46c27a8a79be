/**
 * Faults of the index routes (core part 1): the site index and the namespace indexes.
 */
import { json, type Fault } from '../proxy.ts';

const NAMESPACE_INDEXES: Record<string, string> = { '/oembed/1.0': '/cms/v2', '/cms/v2': '/oembed/1.0' };

export const indexFaults: Fault[] = [
  {
    id: 'index.context-refused',
    title: 'the site and namespace indexes refuse a context other than view',
    caughtBy: ['index.root.context', 'index.oembed.context', 'index.cms.context'],
    request(req) {
      const c = req.query.get('context');
      if (req.method === 'GET' && (req.route === '/' || req.route in NAMESPACE_INDEXES) && c !== null && c !== 'view')
        return json(400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): context', data: { status: 400 } });
    },
  },
  {
    id: 'index.namespace-index-foreign-routes',
    title: "the namespace indexes also list a route of the other namespace",
    caughtBy: ['index.oembed.routes', 'index.cms.routes'],
    response(req, res) {
      const other = NAMESPACE_INDEXES[req.route];
      if (req.method !== 'GET' || !other || !res.json?.routes) return;
      const foreign = req.profile.toTargetRoute(other === '/cms/v2' ? '/cms/v2/posts' : '/oembed/1.0/embed');
      res.json.routes[foreign] = { namespace: req.profile.toTargetNamespace(other.slice(1)), methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] };
    },
  },
  {
    id: 'index.namespace-default-wrong',
    title: 'a namespace index without the namespace parameter answers the other namespace',
    caughtBy: ['index.oembed.namespace-default', 'index.cms.namespace-default'],
    request(req) {
      const other = NAMESPACE_INDEXES[req.route];
      if (req.method === 'GET' && other && !req.query.has('namespace')) req.query.set('namespace', req.profile.toTargetNamespace(other.slice(1)));
    },
  },
  {
    id: 'index.namespace-param-ignored',
    title: 'the namespace indexes ignore the namespace parameter',
    caughtBy: ['index.oembed.namespace-selects', 'index.cms.namespace-selects'],
    request(req) {
      if (req.method === 'GET' && NAMESPACE_INDEXES[req.route]) req.query.delete('namespace');
    },
  },
  {
    id: 'index.gmt-offset-out-of-range',
    title: 'the site index answers gmt_offset 99',
    caughtBy: ['index.gmt-offset.value'],
    response(req, res) {
      if (req.method === 'GET' && req.route === '/' && res.json && 'gmt_offset' in res.json) res.json.gmt_offset = 99;
    },
  },
  {
    id: 'index.route-namespace-unlisted',
    title: 'a routes entry of the site index names a namespace that namespaces does not list',
    caughtBy: ['index.routes.namespace-values'],
    response(req, res) {
      if (req.method !== 'GET' || req.route !== '/' || !res.json?.routes) return;
      const key = Object.keys(res.json.routes).find((k) => req.profile.toSpecRoute(k) === '/oembed/1.0/embed');
      if (key) res.json.routes[key].namespace = 'elsewhere/v9';
    },
  },
  {
    id: 'index.page-on-front-dangling',
    title: 'the site index answers a page_on_front that names no page',
    caughtBy: ['index.root.fields'],
    response(req, res) {
      if (req.method === 'GET' && req.route === '/' && res.json && typeof res.json === 'object') res.json.page_on_front = 987654;
    },
  },
  {
    id: 'index.namespace-index-missing',
    title: 'an advertised namespace (cms-site-health/v1) has no namespace index: 404 rest_no_route',
    caughtBy: ['index.namespaces.served'],
    request(req) {
      if (req.method === 'GET' && req.route === '/cms-site-health/v1') return json(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    },
  },
];
