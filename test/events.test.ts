/**
 * The event log's bodies (src/http/events.ts): secret-looking values are redacted by a scan of the text
 * as sent, which must find exactly the keys, never text inside a string, and count what it cuts.
 */
import { describe, expect, it } from 'vitest';
import { safeBody, secretSpans } from '../src/http/events.ts';

describe('event log bodies', () => {
  it('redacts string and number values of secret-looking keys at any depth, and nothing else', () => {
    const text = JSON.stringify({ password: 'hunter2', n: { api_key: 'k', token: 5, list: [{ nonce: 'x' }], title: 'a "password": "visible"' }, key: 'v', keys: 'kept', pass: { deep: 1 } });
    expect(safeBody(text)).toBe(
      '{"password":"[redacted]","n":{"api_key":"[redacted]","token":"[redacted]","list":[{"nonce":"[redacted]"}],"title":"a \\"password\\": \\"visible\\""},"key":"[redacted]","keys":"kept","pass":{"deep":1}}',
    );
  });
  it('decodes escaped keys before matching them, and keeps the body as the target sent it', () => {
    expect(safeBody('{ "k\\u0065y" : "v", "url": "http:\\/\\/x" }')).toBe('{ "k\\u0065y" : "[redacted]", "url": "http:\\/\\/x" }');
    expect(secretSpans('{"a":"b"}')).toEqual([]);
  });
  it('truncates after redacting, counting the characters left out of the redacted text', () => {
    const long = `{"token":"${'a'.repeat(2000)}","b":"${'c'.repeat(1200)}"}`;
    const redacted = `{"token":"[redacted]","b":"${'c'.repeat(1200)}"}`;
    expect(safeBody(long)).toBe(`${redacted.slice(0, 1000)}… [${redacted.length - 1000} more characters]`);
    const cut = `{"x":"${'b'.repeat(995)}","password":"secret-after-the-cut"}`;
    expect(safeBody(cut)).not.toContain('secret-after-the-cut');
    expect(safeBody('x'.repeat(1000))).toBe('x'.repeat(1000));
    expect(safeBody('')).toBeUndefined();
  });
});
