import { checkWebhookUrl } from '#lambdas/webhooks/rules/webhook-url';
import { ERRORS } from '#contract/errors';
import { WEBHOOK_URL_MAX_LENGTH } from '#contract/limits';

const notPublic = { ok: false, error: ERRORS.webhookHostNotPublic };
const invalid = { ok: false, error: ERRORS.webhook };

describe('checkWebhookUrl', () => {
  test.each([
    'https://hooks.example.com/webhook',
    'https://hooks.example.com:8443/a/b?c=d#e',
    'https://8.8.8.8/hook',
    'https://[2606:4700:4700::1111]/hook',
    'https://localhost.example.com/hook',
  ])('accepts the public https URL %s unchanged', (url) => {
    expect(checkWebhookUrl(url, false)).toEqual({ ok: true, url });
  });

  test.each([
    ['http scheme', 'http://hooks.example.com/webhook'],
    ['ftp scheme', 'ftp://hooks.example.com/webhook'],
    ['relative URL', '/webhook'],
    ['no scheme', 'hooks.example.com/webhook'],
    ['empty string', ''],
    ['user and password', 'https://user:pass@hooks.example.com/'],
    ['user only', 'https://user@hooks.example.com/'],
    ['password only', 'https://:pass@hooks.example.com/'],
  ])('rejects %s with the URL-format message', (_label, url) => {
    expect(checkWebhookUrl(url, false)).toEqual(invalid);
  });

  test.each([
    ['a leading space', ' https://hooks.example.com/'],
    ['a trailing newline', 'https://hooks.example.com/\n'],
    ['a newline inside the host', 'https://hooks.exa\nmple.com/'],
    ['a tab inside the path', 'https://hooks.example.com/a\tb'],
    ['a space inside the path', 'https://hooks.example.com/a b'],
    ['a NUL', 'https://hooks.example.com/\u0000'],
    ['a DEL', 'https://hooks.example.com/\u007f'],
    ['a no-break space', 'https://hooks.example.com/\u00a0'],
    ['an empty authority', 'https:///x'],
    ['no slashes after the scheme', 'https:example.com'],
    ['one slash after the scheme', 'https:/example.com'],
    ['port 0', 'https://hooks.example.com:0/'],
    ['port 0 written 00', 'https://hooks.example.com:00/'],
  ])('rejects %s with the URL-format message', (_label, url) => {
    expect(checkWebhookUrl(url, false)).toEqual(invalid);
  });

  test.each([
    ['host in capitals', 'https://HOOKS.Example.COM/a', 'https://hooks.example.com/a'],
    ['no path', 'https://hooks.example.com', 'https://hooks.example.com/'],
    ['the default port', 'https://hooks.example.com:443/a', 'https://hooks.example.com/a'],
    ['dot segments', 'https://hooks.example.com/a/../b', 'https://hooks.example.com/b'],
    ['a scheme in capitals', 'HTTPS://hooks.example.com/a', 'https://hooks.example.com/a'],
  ])('stores the normalised URL for %s', (_label, url, normalised) => {
    expect(checkWebhookUrl(url, false)).toEqual({ ok: true, url: normalised });
  });

  test('accepts exactly 2048 characters and rejects 2049', () => {
    const prefix = 'https://hooks.example.com/';
    const atLimit = prefix + 'a'.repeat(WEBHOOK_URL_MAX_LENGTH - prefix.length);
    expect(atLimit).toHaveLength(2048);
    expect(checkWebhookUrl(atLimit, false)).toEqual({ ok: true, url: atLimit });
    expect(checkWebhookUrl(atLimit + 'a', false)).toEqual(invalid);
  });

  test.each([
    ['loopback', 'https://127.0.0.1/hook'],
    ['loopback /8', 'https://127.255.0.9/hook'],
    ['private 10/8', 'https://10.1.2.3/hook'],
    ['private 172.16/12', 'https://172.16.0.1/hook'],
    ['private 172.31', 'https://172.31.255.254/hook'],
    ['private 192.168/16', 'https://192.168.1.1/hook'],
    ['link-local metadata', 'https://169.254.169.254/latest/meta-data'],
    ['CGNAT 100.64/10', 'https://100.64.0.1/hook'],
    ['multicast', 'https://224.0.0.1/hook'],
    ['unspecified', 'https://0.0.0.0/hook'],
    ['broadcast', 'https://255.255.255.255/hook'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['IPv6 unspecified', 'https://[::]/hook'],
    ['IPv6 unique local', 'https://[fc00::1]/hook'],
    ['IPv6 link-local', 'https://[fe80::1]/hook'],
    ['IPv6 multicast', 'https://[ff02::1]/hook'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
    ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/hook'],
    ['NAT64 of a private address', 'https://[64:ff9b::a00:1]/hook'],
    ['hex/short IPv4 notation 0x7f.1', 'https://0x7f.1/hook'],
    ['decimal IPv4 notation', 'https://2130706433/hook'],
    ['octal IPv4 notation', 'https://0177.0.0.1/hook'],
    ['short IPv4 notation 127.1', 'https://127.1/hook'],
    ['localhost', 'https://localhost/hook'],
    ['localhost with port', 'https://localhost:8443/hook'],
    ['localhost, trailing dot', 'https://localhost./hook'],
    ['LOCALHOST in capitals', 'https://LOCALHOST/hook'],
    ['subdomain of localhost', 'https://foo.localhost/hook'],
    ['deep subdomain of localhost', 'https://a.b.localhost/hook'],
  ])('refuses %s with the public-address message', (_label, url) => {
    expect(checkWebhookUrl(url, false)).toEqual(notPublic);
  });

  // IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291 2.5.5.1) lies in ::/8, which IANA
  // reserves: it is not a public address, yet ipaddr.js calls it 'unicast'.
  test.each([
    ['IPv4-compatible loopback', 'https://[::127.0.0.1]/hook'],
    ['IPv4-compatible private', 'https://[::10.0.0.1]/hook'],
  ])('refuses %s (a reserved ::/96 address) with the public-address message', (_label, url) => {
    expect(checkWebhookUrl(url, false)).toEqual(notPublic);
  });

  describe('with allowLoopback (local development)', () => {
    test.each([
      'http://127.0.0.1:8080/x',
      'http://localhost/x',
      'https://localhost:9443/x',
      'http://[::1]:8080/x',
      'http://127.0.0.2/x',
      'http://hooks.localhost/x',
    ])('accepts the loopback URL %s', (url) => {
      expect(checkWebhookUrl(url, true)).toEqual({ ok: true, url });
    });

    test('still refuses private addresses', () => {
      expect(checkWebhookUrl('http://10.0.0.1/x', true)).toEqual(invalid);
      expect(checkWebhookUrl('https://10.0.0.1/x', true)).toEqual(notPublic);
      expect(checkWebhookUrl('https://169.254.169.254/x', true)).toEqual(notPublic);
    });

    test('still refuses http to public hosts, user-info and other schemes', () => {
      expect(checkWebhookUrl('http://hooks.example.com/x', true)).toEqual(invalid);
      expect(checkWebhookUrl('http://user:pw@localhost/x', true)).toEqual(invalid);
      expect(checkWebhookUrl('ftp://localhost/x', true)).toEqual(invalid);
    });
  });

  test('without allowLoopback, http loopback gets the URL-format message (https is checked first)', () => {
    expect(checkWebhookUrl('http://127.0.0.1:8080/x', false)).toEqual(invalid);
  });
});
