import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { SETTINGS } from '#lambdas/config/settings';
import { ROUTES, routeEntry } from '#lambdas/definitions/routes';
import { TABLES } from '#lambdas/definitions/tables';
import { PIPELINE_ENTRIES } from '#lambdas/definitions/webhooks';
import { BUNDLE_FILE_NAME, BUNDLING, esbuildOptionsFor } from '#lib/bundling';

const REPO_ROOT = path.resolve(__dirname, '../..');
/** What @aws-sdk/credential-provider-node's default provider throws when no source has credentials. */
const CREDENTIAL_CHAIN_MESSAGE = 'Could not load credentials from any providers';

/**
 * Imports a bundle in a fresh Node process, as the Lambda runtime does, and reports its handler's
 * type and the undici modules Node loaded: an ESM import of `node:http` loads Node's bundled undici
 * (lambdas/http/node-http.ts), and the functions talk to AWS over `https://` only.
 */
function loadedBundle(bundle: string): { handlerType: string; undiciModules: number } {
  const env = {
    PATH: process.env.PATH,
    AWS_REGION: 'eu-west-1',
    [SETTINGS.siteUrl.env]: 'https://secrets.example.com',
    ...Object.fromEntries(TABLES.map((table) => [table.envVar, table.id])),
    BUNDLE: bundle,
  };
  const loaded = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(process.env.BUNDLE);
       const undiciModules = process.moduleLoadList.filter((name) => name.includes('undici')).length;
       process.stdout.write(JSON.stringify({ handlerType: typeof m.handler, undiciModules }));`,
    ],
    { env, encoding: 'utf8' },
  );
  if (loaded.status !== 0) throw new Error(`importing ${bundle} failed: ${loaded.stderr}`);
  return JSON.parse(loaded.stdout) as { handlerType: string; undiciModules: number };
}

// The one test that really bundles: every handler, with the options the stack gives NodejsFunction.
describe('function bundles', () => {
  const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'route-bundles-'));
  afterAll(() => fs.rmSync(outRoot, { recursive: true, force: true }));

  const entries = [...ROUTES.map((route) => [route.name, routeEntry(route)] as const), ...Object.entries(PIPELINE_ENTRIES)];
  it.each(entries)('%s bundles to ESM that loads, without undici, and exports handler', async (name, entry) => {
    const outdir = path.join(outRoot, name);
    await build({ ...esbuildOptionsFor(path.join(REPO_ROOT, entry), outdir), logLevel: 'silent' });

    const bundle = path.join(outdir, BUNDLE_FILE_NAME);
    const source = fs.readFileSync(bundle, 'utf8');
    expect(source.startsWith(BUNDLING.banner)).toBe(true);
    // The SDK's default credential provider chain is left out (lib/bundling.ts): its own error message is not there.
    expect(source).not.toContain(CREDENTIAL_CHAIN_MESSAGE);
    expect(loadedBundle(bundle)).toEqual({ handlerType: 'function', undiciModules: 0 });
  });
});

test('the stack hands NodejsFunction the aliases the bench builds with: the credential chain and node:http', () => {
  const aliases = [BUNDLING.esbuildArgs['--alias']].flat().map((alias) => String(alias).split('='));
  expect(aliases.map(([name]) => name)).toEqual(['@aws-sdk/credential-provider-node', 'node:http']);
  for (const [name = '', replacement = ''] of aliases) {
    expect(path.resolve(REPO_ROOT, replacement)).toBe(esbuildOptionsFor('entry.ts', 'out').alias?.[name]);
    expect(fs.existsSync(path.resolve(REPO_ROOT, replacement))).toBe(true);
  }
});
