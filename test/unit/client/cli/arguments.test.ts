import { parse } from '#client/cli/arguments';

/** What parseArgs makes of a command line, secret ids that begin with '-' included (one in 64 does). */

const ID_WITH_DASH = '-aB3dEfGhIjKlMnOpQrStUv';
const ID_WITH_TWO_DASHES = '--B3dEfGhIjKlMnOpQrStUv';

describe('the CLI reads its arguments', () => {
  test.each([ID_WITH_DASH, ID_WITH_TWO_DASHES])('a secret id that begins with "-" is a positional, wherever it stands: %s', (id) => {
    expect(parse(['status', id, '--json'])).toMatchObject({ positionals: ['status', id], values: { json: true } });
    expect(parse(['status', '--json', id])).toMatchObject({ positionals: ['status', id], values: { json: true } });
  });

  test("an option's value that is such an id comes back as it was", () => {
    expect(parse(['reveal', 'https://x.example/s/abc', '--output', ID_WITH_DASH]).values.output).toBe(ID_WITH_DASH);
  });

  test.each([
    [['status', '-a'], "Unknown option '-a'"],
    [['status', '--jsno'], "Unknown option '--jsno'"],
    [['share', '--views'], "Option '--views <value>' argument missing"],
  ])('what is not an id is still read as an option: %j', (args, message) => {
    expect(() => parse(args)).toThrow(message);
  });

  test('known options keep their meaning', () => {
    expect(parse(['share', '--ttl', '1h', '-h'])).toMatchObject({ positionals: ['share'], values: { ttl: '1h', help: true } });
  });
});
