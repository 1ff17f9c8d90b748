import { EDGE_HEADERS } from '#contract/site';
import { clientAddress, viewerAddress } from '#lambdas/http/client-address';
import { apiEvent } from '../support/events';

const SECRET = 'k3P9mZt7Qw2Lx8Vb4Nc6Rd1Fg5Hj0Ks';
const EDGE_SERVER = '130.176.0.12';

/** A POST /keys as API Gateway hands it over: from `sourceIp`, with these headers. */
const keysRequest = (headers: Record<string, string>, sourceIp = EDGE_SERVER) => apiEvent({ method: 'POST', path: '/keys', headers, sourceIp });

describe('clientAddress', () => {
  it('takes the viewer address the distribution forwards, beside its secret', () => {
    const event = keysRequest({ [EDGE_HEADERS.originSecret]: SECRET, [EDGE_HEADERS.viewerAddress]: '198.51.100.10:46532' });
    expect(clientAddress(event, SECRET)).toBe('198.51.100.10');
  });

  it('reads header names in any case, as API Gateway passes them as sent', () => {
    const event = keysRequest({ 'X-Origin-Secret': SECRET, 'CloudFront-Viewer-Address': '2001:db8::7:443' });
    expect(clientAddress(event, SECRET)).toBe('2001:db8::7');
  });

  it.each([
    ['no secret header', { [EDGE_HEADERS.viewerAddress]: '198.51.100.10:1' }],
    ['a wrong secret', { [EDGE_HEADERS.originSecret]: `${SECRET.slice(1)}x`, [EDGE_HEADERS.viewerAddress]: '198.51.100.10:1' }],
    ['a longer secret', { [EDGE_HEADERS.originSecret]: `${SECRET}x`, [EDGE_HEADERS.viewerAddress]: '198.51.100.10:1' }],
    ['no viewer address', { [EDGE_HEADERS.originSecret]: SECRET }],
    ['an unreadable viewer address', { [EDGE_HEADERS.originSecret]: SECRET, [EDGE_HEADERS.viewerAddress]: 'somewhere:1' }],
  ])('keeps the source address with %s: a direct caller cannot choose its address', (_, headers) => {
    expect(clientAddress(keysRequest(headers, '203.0.113.9'), SECRET)).toBe('203.0.113.9');
  });

  it('trusts no forwarded address without a configured secret (local mode)', () => {
    const event = keysRequest({ [EDGE_HEADERS.originSecret]: '', [EDGE_HEADERS.viewerAddress]: '198.51.100.10:1' }, '127.0.0.1');
    expect(clientAddress(event, undefined)).toBe('127.0.0.1');
  });
});

describe('viewerAddress', () => {
  it.each([
    ['198.51.100.10:46532', '198.51.100.10'],
    ['2001:0db8:85a3:0000:0000:8a2e:0370:7334:46532', '2001:db8:85a3::8a2e:370:7334'],
    ['::ffff:192.0.2.1:80', '192.0.2.1'],
    ['::ffff:c000:201:80', '192.0.2.1'],
    ['2001:DB8:0:0:0:0:0:7:443', '2001:db8::7'],
  ])('%s is %s', (value, address) => {
    expect(viewerAddress(value)).toBe(address);
  });

  // Only the forms CloudFront writes: not the shorthand IPv4 that URL parsers take (3232235777 for 192.168.1.1).
  it.each(['', '198.51.100.10', 'not-an-address:1', ':443', '3232235777:80', '192.168.1:80'])('%j is unreadable', (value) => {
    expect(viewerAddress(value)).toBeUndefined();
  });
});
