import { exitWithUsage, parseCommandLine } from './command-line';
import { runSmoke } from './smoke-checks';

const USAGE = `Usage: npm run smoke -- <SiteUrl> [--webhook URL] [--webhook-wait SECONDS]

Checks a deployment over HTTP as a user reaches it: health, the gateway's 404 and 401, the pages
and their security headers, then with one API key of its own: inspect and update the key, a small
secret and a chunked one (400 KB) round trip, a claim race (8 claims of a 1-view secret: exactly
one wins), a revoked secret, and finally the key revoked. Everything it creates it removes again.
It prints one line per check, never a key, secret, id or data; a failed check's line starts with
FAIL and names the check, and the exit code is 1.

  <SiteUrl>               the stack's SiteUrl output, or local mode's http://localhost:3000
  --webhook URL           subscribe the key to this receiver of yours: the checks' events go there
  --webhook-wait SECONDS  with --webhook, how long to keep the key before revoking it, so that the
                          deliveries (which read the key) go out (default 20)
  -h, --help              this text`;

const DEFAULT_WEBHOOK_WAIT_S = 20;

function fail(message: string): never {
  return exitWithUsage(USAGE, message);
}

async function main(): Promise<void> {
  const parsed = parseCommandLine(USAGE, { webhook: { type: 'string' }, 'webhook-wait': { type: 'string' } }, 1);
  if (!parsed) return;
  const { values, positionals } = parsed;
  const [siteUrl] = positionals;
  if (!siteUrl) fail('no SiteUrl given');
  if (!URL.canParse(siteUrl) || !/^https?:$/.test(new URL(siteUrl).protocol)) fail(`not an http(s) URL: ${siteUrl}`);
  const waitS = Number(values['webhook-wait'] ?? DEFAULT_WEBHOOK_WAIT_S);
  if (!Number.isFinite(waitS) || waitS < 0) fail(`--webhook-wait must be a number of seconds, got ${values['webhook-wait']}`);

  const results = await runSmoke({
    siteUrl,
    ...(values.webhook ? { webhook: values.webhook } : {}),
    webhookWaitMs: waitS * 1000,
  });
  for (const result of results) {
    if (result.ok) console.log(`ok    ${result.check}: ${result.detail}`);
    else console.error(`FAIL  ${result.check}: ${result.detail}`);
  }
  const failed = results.filter((result) => !result.ok).length;
  console.log(failed === 0 ? `all ${results.length} checks passed` : `${failed} of ${results.length} checks failed`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`FAIL  smoke: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
