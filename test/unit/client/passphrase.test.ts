import { createDecipheriv } from 'node:crypto';
import vectors from '../../../client/test-vectors-v2.json';
import { fromBase64, fromBase64Url, toBase64, toBase64Url } from '#client/base64';
import { OnetimeClient } from '#client/client';
import { AAD_V2, importKey, open, sealWithIv } from '#client/envelope';
import { PassphraseError, SecretGoneError } from '#client/errors';
import { parseLink } from '#client/link';
import { PBKDF2_ITERATIONS, derivePassphraseKeys, gateOf, stretch } from '#client/passphrase';
import { GATE } from '#contract/limits';
import { renderVectors } from '#scripts/vectors';
import { failureOf, fakeFetch, type Scripted } from './fake-fetch';

/** client/test-vectors-v2.json: made by node:crypto (scripts/vectors.ts), checked against the library. */

const hex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));
const linkKey = hex(vectors.linkKeyHex);
const [first] = vectors.derivations;
if (!first) throw new Error('no derivations');

const BASE = 'http://localhost:3000/api/v1';
const ID = 'J8k051Rl3B2N5nxEX7V-gg';
const CREATED: Scripted = { status: 201, body: { id: ID, url: `http://localhost:3000/${ID}` } };

test('the committed vectors are exactly what node:crypto computes (npm run vectors)', () => {
  expect(`${JSON.stringify(vectors, null, 2)}\n`).toBe(renderVectors('test-vectors-v2.json'));
  expect(vectors.iterations).toBe(PBKDF2_ITERATIONS);
});

describe.each(vectors.derivations.map((derivation) => [derivation.name, derivation] as const))('derivation: %s', (_, derivation) => {
  test('the library derives the same stretched passphrase, key, proof and gate', async () => {
    expect(Buffer.from(await stretch(linkKey, derivation.passphrase)).toString('hex')).toBe(derivation.stretchedHex);
    const keys = await derivePassphraseKeys(linkKey, derivation.passphrase);
    expect(Buffer.from(keys.key).toString('hex')).toBe(derivation.envelopeKeyHex);
    expect(toBase64Url(keys.proof)).toBe(derivation.proofBase64Url);
    expect(toBase64Url(await gateOf(keys.proof))).toBe(derivation.gateBase64Url);
    expect(GATE.digestPattern.test(derivation.gateBase64Url) && GATE.digestPattern.test(derivation.proofBase64Url)).toBe(true);
  });
});

test('the passphrase is normalized to NFC: typed decomposed or precomposed, it is one passphrase', async () => {
  const decomposed = vectors.derivations[1]?.passphrase ?? '';
  expect(decomposed).not.toBe(decomposed.normalize('NFC'));
  expect(Buffer.from(await stretch(linkKey, decomposed.normalize('NFC'))).toString('hex')).toBe(vectors.derivations[1]?.stretchedHex);
});

test('the passphrase is not trimmed', async () => {
  const spaced = vectors.derivations[2]?.passphrase ?? '';
  expect(Buffer.from(await stretch(linkKey, spaced.trim())).toString('hex')).not.toBe(vectors.derivations[2]?.stretchedHex);
});

test('an empty passphrase is refused', async () => {
  await expect(derivePassphraseKeys(linkKey, '')).rejects.toMatchObject({ kind: 'input', message: 'the passphrase is empty' });
});

describe.each(vectors.envelopes.map((vector) => [vector.name, vector] as const))('envelope v2: %s', (_, vector) => {
  const field = vector.field as 'data' | 'filename';
  const decode = (): Uint8Array => (field === 'data' ? fromBase64(vector.sent) : (fromBase64Url(vector.sent) ?? new Uint8Array()));
  const key = () => importKey(hex(first.envelopeKeyHex));
  const plaintext = new TextEncoder().encode(vector.plaintextUtf8);

  test('node:crypto reads the fixture as AES-256-GCM under K', () => {
    const envelope = Buffer.from(decode());
    expect(envelope[0]).toBe(2);
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(first.envelopeKeyHex, 'hex'), envelope.subarray(1, 13));
    decipher.setAAD(Buffer.from(vector.aad, 'ascii'));
    decipher.setAuthTag(envelope.subarray(-16));
    expect(Buffer.concat([decipher.update(envelope.subarray(13, -16)), decipher.final()]).toString('utf8')).toBe(vector.plaintextUtf8);
  });

  test('the library seals to exactly the fixture and opens it', async () => {
    expect(AAD_V2[field]).toBe(vector.aad);
    const envelope = await sealWithIv(await key(), hex(vector.ivHex), plaintext, field, 2);
    expect(field === 'data' ? toBase64(envelope) : toBase64Url(envelope)).toBe(vector.sent);
    expect(await open(await key(), decode(), field, 2)).toEqual(plaintext);
  });

  test('a version-1 reader refuses it, and a version-2 reader refuses a version byte of 1', async () => {
    await expect(open(await key(), decode(), field, 1)).rejects.toMatchObject({ reason: 'undecryptable' });
    const relabelled = decode();
    relabelled[0] = 1;
    await expect(open(await key(), relabelled, field, 2)).rejects.toMatchObject({ reason: 'undecryptable' });
  });
});

test('a gated link is marked "#p." before its key', () => {
  expect(parseLink(vectors.link.link)).toEqual({ id: ID, key: linkKey, gated: true });
  expect(parseLink(vectors.link.link.replace('#p.', '#'))).toMatchObject({ gated: false });
  expect(() => parseLink(`${vectors.link.url}#p.`)).toThrow(/missing/);
});

describe('the library against a scripted service', () => {
  test('share with a passphrase sends the gate, never the passphrase or the proof, and makes a "#p." link', async () => {
    const { fetch, calls } = fakeFetch(CREATED);
    const shared = await new OnetimeClient({ baseUrl: BASE, apiKey: 'svc_x', fetch }).share('the secret', { passphrase: 'hunter2 hunter2' });
    const body = JSON.parse(calls[0]?.body ?? '{}') as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['data', 'gate', 'type']);
    expect(calls[0]?.body).not.toContain('hunter2');
    const { key, gated } = parseLink(shared.link);
    expect(gated).toBe(true);
    const derived = await derivePassphraseKeys(key, 'hunter2 hunter2');
    expect(body.gate).toBe(toBase64Url(await gateOf(derived.proof)));
    expect(fromBase64(String(body.data))[0]).toBe(2);
  });

  test('an empty passphrase is refused before any request', async () => {
    const { fetch, calls } = fakeFetch();
    await expect(new OnetimeClient({ baseUrl: BASE, apiKey: 'svc_x', fetch }).share('x', { passphrase: '' })).rejects.toMatchObject({
      kind: 'input',
    });
    expect(calls).toHaveLength(0);
  });

  test('reveal of a gated link without a passphrase is refused before any request, not even one minting a key', async () => {
    const { fetch, calls } = fakeFetch();
    await expect(new OnetimeClient({ baseUrl: BASE, fetch }).reveal(vectors.link.link)).rejects.toMatchObject({ kind: 'input' });
    expect(calls).toHaveLength(0);
  });

  test('reveal sends the proof and opens the vector envelope', async () => {
    const [text] = vectors.envelopes;
    const { fetch, calls } = fakeFetch({ status: 200, body: { data: text?.sent, type: 'text', filename: null, mimetype: null, remaining: 0 } });
    const revealed = await new OnetimeClient({ baseUrl: BASE, apiKey: 'svc_x', fetch }).reveal(vectors.link.link, { passphrase: first.passphrase });
    expect(revealed).toEqual({ type: 'text', text: text?.plaintextUtf8, remaining: 0 });
    expect(calls[0]?.headers[GATE.proofHeader]).toBe(first.proofBase64Url);
  });

  test('a wrong passphrase tells the attempts left; the last one that the secret was deleted', async () => {
    const wrong = (left: number): Scripted => ({
      status: 403,
      body: { error: 'wrong passphrase' },
      headers: { [GATE.attemptsLeftHeader]: String(left) },
    });
    const { fetch } = fakeFetch(wrong(1), wrong(0));
    const client = new OnetimeClient({ baseUrl: BASE, apiKey: 'svc_x', fetch });
    const once = await failureOf(client.reveal(vectors.link.link, { passphrase: 'nope' }));
    expect(once).toBeInstanceOf(PassphraseError);
    expect(once).toMatchObject({ attemptsLeft: 1, message: 'wrong passphrase: 1 attempt left before the secret is deleted' });
    const last = await failureOf(client.reveal(vectors.link.link, { passphrase: 'nope' }));
    expect(last).toBeInstanceOf(SecretGoneError);
    expect(last).toMatchObject({ burned: true, message: 'wrong passphrase: that was the last attempt, and the secret has been deleted' });
  });

  test('a link that lost its "p." marker is told apart by the service’s answer', async () => {
    const { fetch } = fakeFetch({ status: 403, body: { error: 'passphrase required' }, headers: { [GATE.attemptsLeftHeader]: '5' } });
    const error = await failureOf(new OnetimeClient({ baseUrl: BASE, apiKey: 'svc_x', fetch }).reveal(vectors.link.link.replace('#p.', '#')));
    expect(error).toMatchObject({ kind: 'passphrase', reason: 'required', attemptsLeft: 5 });
  });
});
