/**
 * `serve` says what it serves as it is: the blog's counts in its help come from the blog itself
 * (describeBlog), and the documents that count it say the same; `--host 0.0.0.0` prints the host it
 * listens on, with the URL to use from the machine beside it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVE_USAGE, listeningOn } from '../src/cli/serve.ts';
import { describeBlog, realisticBlog } from '../targets/reference/blog.ts';
import { ROOT } from './helpers/cli.ts';

describe('serve', () => {
  it('--help counts the blog from the blog; the documents count it the same', () => {
    const blog = realisticBlog().items;
    const pages = blog.filter((i) => i.type === 'page' && i.status === 'publish').length;
    const posts = blog.filter((i) => i.type === 'post' && i.status === 'publish').length;
    expect(SERVE_USAGE.replace(/\s+/g, ' ')).toContain(describeBlog());
    expect(describeBlog()).toMatch(new RegExp(`^${posts} published posts .* ${pages} published pages in a tree`));
    for (const doc of ['README.md', 'targets/reference/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]) {
      const text = readFileSync(join(ROOT, doc), 'utf8').replace(/\s+/g, ' ');
      for (const m of text.matchAll(/(\d+) (?:published )?pages in a tree/g)) expect(Number(m[1]), `${doc}: "${m[0]}"`).toBe(pages);
      for (const m of text.matchAll(/(\d+) (?:published )?posts over/g)) expect(Number(m[1]), `${doc}: "${m[0]}"`).toBe(posts);
    }
  });
  it('--host 0.0.0.0 prints the address it listens on, and the URL to use from this machine', () => {
    expect(listeningOn('0.0.0.0', 'http://127.0.0.1:8080')).toBe('http://0.0.0.0:8080 (every address of this machine; from here: http://127.0.0.1:8080)');
    expect(listeningOn(undefined, 'http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(listeningOn('127.0.0.2', 'http://127.0.0.2:8080')).toBe('http://127.0.0.2:8080');
  });
});
