import { makeLink, parseLink, secretIdOf } from '#client/link';
import { VECTORS, hex } from './vectors';

const ID = 'J8k051Rl3B2N5nxEX7V-gg';
const SITE = 'https://secrets.example.com/s';
const K = VECTORS.keyBase64Url;

test('a link is the url, "#", and the key in 43 characters of base64url (fixture)', () => {
  expect(makeLink(VECTORS.link.url, hex(VECTORS.keyHex))).toBe(VECTORS.link.link);
  expect(K).toHaveLength(43);
  expect(parseLink(VECTORS.link.link)).toEqual({ id: ID, key: hex(VECTORS.keyHex), gated: false });
});

test('the id is the last segment of the path, under any site path', () => {
  expect(parseLink(`${SITE}/${ID}#${K}`).id).toBe(ID);
});

test.each([
  ['no fragment', `${SITE}/${ID}`, 'the key after "#" is missing'],
  ['an empty fragment', `${SITE}/${ID}#`, 'the key after "#" is missing'],
  ['a key one character short', `${SITE}/${ID}#${K.slice(0, 42)}`, 'must be 43 characters'],
  ['a key one character long', `${SITE}/${ID}#${K}A`, 'must be 43 characters'],
  ['a key with a character outside base64url', `${SITE}/${ID}#${K.slice(0, 42)}+`, 'must be 43 characters'],
  // 43 characters carry 258 bits: the last character's low 2 bits must be zero ("h" has them set).
  ['a key with stray bits', `${SITE}/${ID}#${K.slice(0, 42)}h`, 'must be 43 characters'],
  ['no id', `${SITE}/#${K}`, 'does not end in a secret id'],
  ['not a URL', `${ID}#${K}`, 'not a URL'],
])('refuses a link with %s, without revealing the key', (_, link, problem) => {
  expect(() => parseLink(link)).toThrow(problem);
  try {
    parseLink(link);
  } catch (error) {
    expect((error as Error).message).not.toContain(K.slice(0, 20));
    expect(error).toMatchObject({ kind: 'link', reason: 'malformed' });
  }
});

describe('secretIdOf (revoke takes a link or an id)', () => {
  test.each([
    ['an id', ID],
    ['a link', `${SITE}/${ID}#${K}`],
    ['a link without its key', `${SITE}/${ID}`],
  ])('%s', (_, input) => {
    expect(secretIdOf(input)).toBe(ID);
  });

  test.each(['', 'short', 'https://secrets.example.com/'])('refuses %p', (input) => {
    expect(() => secretIdOf(input)).toThrow(/invalid link/);
  });
});
