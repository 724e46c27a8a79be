/**
 * A failure shows the request as it went on the wire (issue 34): method, documented route, the
 * query exactly as sent, credentials yes/no, the start of the body.
 */
import { describe, expect, it } from 'vitest';
import { requestLine } from '../src/http/failure-kind.ts';

describe('requestLine', () => {
  it('shows the query as sent (its list and object forms), the credentials and the body', () => {
    const e = {
      method: 'GET',
      url: 'http://h/index.php?rest_route=%2Fwp%2Fv2%2Fposts&status=any&include=1%2C2&categories%5Bterms%5D=3&context=edit',
      route: '/wp/v2/posts',
      auth: 'configured' as const,
    };
    expect(requestLine(e, (r) => r.replace('/wp/v2', '/cms/v2'))).toBe('GET /cms/v2/posts?status=any&include=1,2&categories[terms]=3&context=edit (with credentials)');
    expect(requestLine({ ...e, method: 'POST', url: 'http://h/index.php?rest_route=/wp/v2/posts', auth: 'none', requestBody: JSON.stringify({ title: { raw: 'x'.repeat(200) } }) })).toMatch(
      /^POST \/wp\/v2\/posts \(without credentials, body \{"title":\{"raw":"x+…\)$/,
    );
  });
});
