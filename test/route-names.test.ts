/** Messages quote the route the target was sent, with the documented name beside it (src/sdk/route-names.ts). */
import { describe, expect, it } from 'vitest';
import { getProfile } from '../schemas/profiles.ts';
import { withTargetRoutes } from '../src/sdk/route-names.ts';

const wp = getProfile('wordpress');

describe('withTargetRoutes', () => {
  it('keeps a comma list of a query in the route it belongs to; a comma and a space end the route', () => {
    expect(withTargetRoutes('made from GET /cms/v2/posts?exclude=12&include=21,12,8&per_page=100 in 5 requests', wp)).toBe(
      'made from GET /wp/v2/posts?exclude=12&include=21,12,8&per_page=100 (spec /cms/v2/posts) in 5 requests',
    );
    expect(withTargetRoutes('GET /cms/v2/posts, then GET /cms/v2/pages', wp)).toBe('GET /wp/v2/posts (spec /cms/v2/posts), then GET /wp/v2/pages (spec /cms/v2/pages)');
  });
  it('puts the route sent first and the spec route beside it', () => {
    expect(withTargetRoutes('GET /spamfilter/v1/stats/60-days answered 404 rest_no_route (No route was found.)', wp)).toBe(
      'GET /akismet/v1/stats/60-days (spec /spamfilter/v1/stats/60-days) answered 404 rest_no_route (No route was found.)',
    );
    expect(withTargetRoutes('GET /suite/v4/settings answers x; POST /cms/v2/posts: refused', wp)).toBe(
      'GET /jetpack/v4/settings (spec /suite/v4/settings) answers x; POST /wp/v2/posts (spec /cms/v2/posts): refused',
    );
  });
  it('keeps the query with the route sent and names the documented path', () => {
    expect(withTargetRoutes('GET /spamfilter/v1/stats?interval=x answered 200', wp)).toBe('GET /akismet/v1/stats?interval=x (spec /spamfilter/v1/stats) answered 200');
  });
  it('handles route shapes, index patterns, full-route renames and sentence punctuation', () => {
    expect(withTargetRoutes('POST /suite/v4/module/<slug>.', wp)).toBe('POST /jetpack/v4/module/<slug> (spec /suite/v4/module/<slug>).');
    expect(withTargetRoutes('first: /contactform/v1/contact-forms/(?P<id>\\d+): no href', wp)).toBe(
      'first: /contact-form-7/v1/contact-forms/(?P<id>\\d+) (spec /contactform/v1/contact-forms/(?P<id>\\d+)): no href',
    );
    expect(withTargetRoutes('(see /suite/v4/suite_crm)', wp)).toBe('(see /jetpack/v4/jetpack_crm (spec /suite/v4/suite_crm))');
  });
  it('leaves target routes, file paths, unrenamed routes and the spec profile alone, and is idempotent', () => {
    for (const s of ['GET /wp/v2/posts answered 200', 'see suites/cms/v2/posts.ts', 'GET /batch/v1 answered 207', 'GET /oembed/1.0/proxy answered 400', 'GET / answered 200'])
      expect(withTargetRoutes(s, wp)).toBe(s);
    const s = 'GET /spamfilter/v1/key answered 500';
    expect(withTargetRoutes(s, getProfile('spec'))).toBe(s);
    const once = withTargetRoutes(s, wp);
    expect(withTargetRoutes(once, wp)).toBe(once);
  });
});
