import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { ENV } from '#lambdas/definitions/env';
import { ROUTES, routeEntry } from '#lambdas/definitions/routes';
import { TABLES } from '#lambdas/definitions/tables';
import { PIPELINE_ENTRIES } from '#lambdas/definitions/webhooks';
import { BUNDLE_FILE_NAME, BUNDLING, esbuildOptionsFor } from '#lib/bundling';

const REPO_ROOT = path.resolve(__dirname, '../..');
/** What @aws-sdk/credential-provider-node's default provider throws when no source has credentials. */
const CREDENTIAL_CHAIN_MESSAGE = 'Could not load credentials from any providers';

/** Imports a bundle in a fresh Node process, as the Lambda runtime does, and reports its handler's type. */
function handlerTypeOf(bundle: string): string {
  const env = {
    PATH: process.env.PATH,
    AWS_REGION: 'eu-west-1',
    [ENV.siteUrl]: 'https://secrets.example.com',
    ...Object.fromEntries(TABLES.map((table) => [table.envVar, table.id])),
    BUNDLE: bundle,
  };
  const loaded = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', 'const m = await import(process.env.BUNDLE); process.stdout.write(typeof m.handler);'],
    { env, encoding: 'utf8' },
  );
  if (loaded.status !== 0) throw new Error(`importing ${bundle} failed: ${loaded.stderr}`);
  return loaded.stdout;
}

// The one test that really bundles: every handler, with the options the stack gives NodejsFunction.
describe('function bundles', () => {
  const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'route-bundles-'));
  afterAll(() => fs.rmSync(outRoot, { recursive: true, force: true }));

  const entries = [...ROUTES.map((route) => [route.name, routeEntry(route)] as const), ...Object.entries(PIPELINE_ENTRIES)];
  it.each(entries)('%s bundles to ESM that loads and exports handler', async (name, entry) => {
    const outdir = path.join(outRoot, name);
    await build({ ...esbuildOptionsFor(path.join(REPO_ROOT, entry), outdir), logLevel: 'silent' });

    const bundle = path.join(outdir, BUNDLE_FILE_NAME);
    const source = fs.readFileSync(bundle, 'utf8');
    expect(source.startsWith(BUNDLING.banner)).toBe(true);
    // The SDK's default credential provider chain is left out (lib/bundling.ts): its own error message is not there.
    expect(source).not.toContain(CREDENTIAL_CHAIN_MESSAGE);
    expect(handlerTypeOf(bundle)).toBe('function');
  });
});

test('the stack hands NodejsFunction the alias that keeps the credential chain out', () => {
  const [alias] = [BUNDLING.esbuildArgs['--alias']].flat();
  const replacement = String(alias).split('=')[1] ?? '';
  expect(String(alias)).toMatch(/^@aws-sdk\/credential-provider-node=/);
  expect(path.resolve(REPO_ROOT, replacement)).toBe(esbuildOptionsFor('entry.ts', 'out').alias?.['@aws-sdk/credential-provider-node']);
  expect(fs.existsSync(path.resolve(REPO_ROOT, replacement))).toBe(true);
});
