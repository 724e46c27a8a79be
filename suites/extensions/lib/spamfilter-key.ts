/**
 * The spamfilter/v1 key (extensions part 2 › Spam filter key): "a single key string, 12
 * characters"; other lengths refused and not stored, GET and DELETE work, a 12-character key
 * accepted where the server can verify it. Site state: each behaviour reads the key first and
 * writes it back afterwards, also when it fails; one at a time.
 */
import fc from 'fast-check';
import { endpointById } from '../../../schemas/catalog/index.ts';
import { behaviour, type BehaviourContext } from '../../../src/sdk/behaviour.ts';
import type { Method, Response } from '../../../src/sdk/http.ts';
import { deepEqual } from '../../../src/sdk/discovery.ts';
import { SPAMFILTER, answered, brief, expectAnswered, expectControl, isNoRoute, refused, remoteEvidence, show, skipIfForbidden } from './support.ts';
import { KEY_LOCK, withRestore } from './restore.ts';
import { acrossFiles } from '../../../src/sdk/worker-state.ts';
import { extDecl } from './declare.ts';


const KEY = '/spamfilter/v1/key';

const keyWrite = endpointById('spamfilter.key.update');
const keyArg = (keyWrite.endpoint.args as Record<string, { minLength?: number; maxLength?: number }>).key!;
/** "A single key string, 12 characters" (catalog: minLength = maxLength = 12). */
const KEY_LENGTH = keyArg.minLength!;
if (keyArg.maxLength !== KEY_LENGTH) throw new Error('spamfilter key: the catalog states a length range, expected one length');

const ref = keyWrite.endpoint.spec;
const HEX = [...'0123456789abcdef'];

function randomKey(t: BehaviourContext, length: number, salt: number): string {
  const [chars] = fc.sample(fc.array(fc.constantFrom(...HEX), { minLength: length, maxLength: length }), { seed: t.run.info.config.seed + salt, numRuns: 1 });
  return chars!.join('');
}

/** The stored key in a GET /key answer (a bare string, or an object carrying `key`), else undefined. */
function storedKey(body: unknown): string | undefined {
  if (typeof body === 'string' && body !== '') return body;
  if (body && typeof body === 'object' && typeof (body as { key?: unknown }).key === 'string' && (body as { key: string }).key !== '')
    return (body as { key: string }).key;
  return undefined;
}

async function readKey(t: BehaviourContext): Promise<unknown> {
  const res = await t.client.get(KEY);
  expectAnswered(t, res, `GET ${KEY}`);
  return res.body;
}

/** Put the key back as it was: the original key written again, or no key. */
async function restoreKey(t: BehaviourContext, original: unknown): Promise<string | undefined> {
  const now = await t.client.get(KEY);
  if (answered(now) && deepEqual(now.body, original)) return undefined;
  const key = storedKey(original);
  const res = key ? await t.client.post(KEY, { key }) : await t.client.delete(KEY);
  if (!answered(res)) return `${key ? 'POST' : 'DELETE'} ${KEY} to restore ${key ? 'the original key' : 'no key'} answered ${brief(res)}`;
  return undefined;
}

/**
 * A check that writes the site's one key: with credentials and writes allowed, holding the key
 * across suite files (security.spec.ts writes it too, without credentials), the key read first
 * and written back afterwards, also when the check fails.
 */
async function keyWritten(t: BehaviourContext, check: (original: unknown) => Promise<void>): Promise<void> {
  t.requireNamespace(SPAMFILTER);
  t.requireCredentials();
  t.requireWrites();
  await acrossFiles(t.run.info.runId, KEY_LOCK, async () => {
    const original = await readKey(t);
    await withRestore(() => check(original), () => restoreKey(t, original));
  });
}

export function declareKeyBehaviours(): void {
  behaviour(extDecl('spamfilter.key.read', { namespace: SPAMFILTER, route: KEY, title: 'GET /key answers', spec: ref, covers: ['field:resource.spamfilter.key', 'endpoint:spamfilter.key.read'] }), async (t) => {
    t.requireNamespace(SPAMFILTER);
    t.requireCredentials();
    await readKey(t);
  });

  behaviour(
    extDecl('spamfilter.key.length', { namespace: SPAMFILTER, route: KEY, title: `a key of any length other than ${KEY_LENGTH} is refused (POST, PUT, PATCH) and not stored`, spec: ref, covers: ['field:resource.spamfilter.key', `arg:${keyWrite.endpoint.id}.key`] }),
    async (t) =>
      keyWritten(t, async (original) => {
        const boundaries = [KEY_LENGTH - 1, KEY_LENGTH + 1, 0, 1, 2 * KEY_LENGTH, 40];
        const random = fc.sample(fc.integer({ min: 0, max: 64 }).filter((n) => n !== KEY_LENGTH), { seed: t.run.info.config.seed, numRuns: t.run.info.config.runs });
        const lengths = [...new Set([...boundaries, ...random])];
        const methods: Method[] = ['POST', 'PUT', 'PATCH'];
        const refusals: Response[] = [];
        for (const [i, n] of lengths.entries()) {
          const key = randomKey(t, n, i);
          const method = methods[i % methods.length]!;
          const res = await t.client.request(method, KEY, { body: { key }, invalid: ['key'] });
          refusals.push(res);
          if (!refused(res)) {
            skipIfForbidden(t, res, `${method} ${KEY}`);
            t.counterexample({ method, key, length: n });
            t.fail(`${method} ${KEY} with a ${n}-character key ${show(key)} answered ${brief(res)}, expected a refusal`);
          }
        }
        const after = await readKey(t);
        if (!deepEqual(after, original)) t.fail(`the refused keys changed the stored key: GET ${KEY} answered ${show(original)} before, ${show(after)} after`);
        // Positive control: a ${KEY_LENGTH}-character key, accepted (the original key is written back
        // afterwards). A server that refuses it the same way shows no check of the length; one
        // that refuses it because its spam-filter service cannot verify the key skips, saying so.
        const key = randomKey(t, KEY_LENGTH, 1000);
        const control = await t.client.post(KEY, { key });
        expectControl(t, { what: `POST ${KEY} with the ${KEY_LENGTH}-character key ${show(key)}`, res: control, refusals, see: 'spamfilter.key.accept' });
      }),
  );

  behaviour(
    extDecl('spamfilter.key.accept', { namespace: SPAMFILTER, route: KEY, title: `a ${KEY_LENGTH}-character key is accepted and stored (where the server can verify it)`, spec: ref, covers: [
      'field:resource.spamfilter.key',
      `arg:${keyWrite.endpoint.id}.key`,
      `endpoint:${keyWrite.endpoint.id}`,
    ] }),
    async (t) =>
      keyWritten(t, async (original) => {
        const key = randomKey(t, KEY_LENGTH, 1000);
        const res = await t.client.post(KEY, { key });
        if (answered(res)) {
          const after = await readKey(t);
          if (!JSON.stringify(after).includes(key)) t.fail(`POST ${KEY} accepted ${show(key)} (${res.status}) but GET ${KEY} answers ${show(after)}`);
          return;
        }
        skipIfForbidden(t, res, `POST ${KEY}`);
        if (isNoRoute(res)) t.fail(`POST ${KEY} answered ${brief(res)}: the route does not exist`);
        const remote = remoteEvidence(res);
        if (!remote) t.fail(`POST ${KEY} with the ${KEY_LENGTH}-character key ${show(key)} answered ${brief(res)}, expected a 2xx answer`);
        const after = await readKey(t);
        if (!deepEqual(after, original)) t.fail(`POST ${KEY} refused ${show(key)} (${brief(res)}) but the stored key changed from ${show(original)} to ${show(after)}`);
        t.skip(
          `the server refused the well-formed ${KEY_LENGTH}-character key with ${remote}: it accepts only keys its spam-filter service ` +
            'verifies (an unregistered test key, or a service it cannot reach), so acceptance cannot be checked here',
        );
      }),
  );

  behaviour(
    extDecl('spamfilter.key.delete', { namespace: SPAMFILTER, route: KEY, title: 'DELETE /key answers and removes the stored key (a key of its own where the server stores one; where no key is stored and none can be, it skips: nothing to delete)', spec: ref, covers: ['field:resource.spamfilter.key', 'endpoint:spamfilter.key.delete'] }),
    async (t) =>
      keyWritten(t, async (original) => {
        const ours = randomKey(t, KEY_LENGTH, 2000);
        // A key of our own to delete, where the server accepts one (and stores it: read back); else
        // the original, if it can be written back; else nothing can be deleted, and the check skips.
        const stored = await t.client.post(KEY, { key: ours });
        let expectGone: string | undefined = answered(stored) ? ours : undefined;
        if (expectGone) {
          const held = await readKey(t);
          if (!JSON.stringify(held).includes(ours)) t.dependsOn('spamfilter.key.accept', `POST ${KEY} answered ${stored.status} for the key ${show(ours)}, but GET ${KEY} answers ${show(held)}: no key was stored to delete`);
        }
        if (!expectGone && !storedKey(original))
          t.skip(
            `no key is stored (GET ${KEY} answers ${show(original)}) and the server stores none (POST ${KEY} with the ${KEY_LENGTH}-character key ${show(ours)} answered ${brief(stored)}): ` +
              'there is no key to delete, so whether DELETE removes one cannot be observed',
          );
        if (!expectGone && storedKey(original)) {
          const again = await t.client.post(KEY, { key: storedKey(original) });
          if (!answered(again))
            t.skip(
              `a key is stored and the server accepts no other (POST ${KEY} answered ${brief(stored)}; writing the stored key again ` +
                `answered ${brief(again)}): deleting it could not be undone`,
            );
          expectGone = storedKey(original);
        }
        const res = await t.client.delete(KEY);
        expectAnswered(t, res, `DELETE ${KEY}`);
        const after = await readKey(t);
        if (expectGone && JSON.stringify(after).includes(expectGone)) t.fail(`DELETE ${KEY} answered ${res.status} but GET ${KEY} still answers ${show(after)}`);
      }),
  );
}
