import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { verifySignInToken } from '#lambdas/identity/sign-in-tokens';
import { elapsedMs, hundredths, median, percentile } from './stats';

/**
 * What createAccess=signed-in adds to POST /keys: verifying the sign-in token with the function's
 * own code (lambdas/identity/sign-in-tokens.ts, jose). Cold: a container's first token, which
 * fetches the issuer's discovery document and key set, then verifies. Warm: a later token, the key
 * set cached. The issuer is served on this machine's loopback, so a cold figure here lacks the
 * network round trips to a real issuer (two HTTPS requests from Lambda; Cognito's JWKS is named
 * by the stack, one). Verifying makes no DynamoDB call: bench/sign-in-calls.ts counts them.
 */

export interface SignInCost {
  coldMs: { median: number; p95: number; samples: number };
  warmMs: { median: number; p95: number; samples: number };
}

const AUDIENCE = 'onetime';

export async function measureSignInCost(coldSamples = 30, warmSamples = 2000): Promise<SignInCost> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' };
  // One host, many issuers (a path each): each cold sample is an issuer no cache has seen.
  const server = createServer((request, response) => {
    const url = request.url ?? '';
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${url.replace(/\/(\.well-known\/openid-configuration|jwks)$/, '')}`;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(url.endsWith('/jwks') ? { keys: [jwk] } : { issuer: base, jwks_uri: `${base}/jwks` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tokenFor = (issuer: string): Promise<string> =>
    new SignJWT({ sub: 'alice' })
      .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);

  const verify = async (issuer: string, token: string): Promise<number> => {
    const started = performance.now();
    const verdict = await verifySignInToken(token, { issuer, audience: AUDIENCE, jwksUri: undefined, allowedAccounts: 'any' });
    const ms = elapsedMs(started);
    if (verdict.outcome !== 'valid') throw new Error(`the bench's token was refused: ${JSON.stringify(verdict)}`);
    return ms;
  };
  try {
    const cold: number[] = [];
    for (let sample = 0; sample < coldSamples; sample++) {
      const issuer = `${host}/issuer-${sample}`;
      cold.push(await verify(issuer, await tokenFor(issuer)));
    }
    const warmIssuer = `${host}/issuer-0`;
    const tokens = await Promise.all(Array.from({ length: 20 }, () => tokenFor(warmIssuer)));
    const warm: number[] = [];
    for (let sample = 0; sample < warmSamples; sample++) warm.push(await verify(warmIssuer, tokens[sample % tokens.length] ?? ''));
    const summary = (samples: number[]) => ({
      median: hundredths(median(samples)),
      p95: hundredths(percentile(samples, 95)),
      samples: samples.length,
    });
    return { coldMs: summary(cold), warmMs: summary(warm) };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export const renderSignInCost = (cost: SignInCost): string =>
  [
    '## Signed-in deployments: the sign-in token on POST /keys',
    '',
    `createAccess=signed-in adds the token's verification to POST /keys with a token, measured with the function's own code (bench/sign-in-cost.ts), the issuer on this machine's loopback; it adds no DynamoDB call (counted per request in the next table):`,
    '',
    '| POST /keys with a token | median ms | p95 ms | samples |',
    '|---|---|---|---|',
    `| cold: discovery document, key set, verify | ${cost.coldMs.median} | ${cost.coldMs.p95} | ${cost.coldMs.samples} |`,
    `| warm: key set cached, verify (RS256) | ${cost.warmMs.median} | ${cost.warmMs.p95} | ${cost.warmMs.samples} |`,
    '',
    "On Lambda a cold token also waits for the network round trips to the issuer (one with the stack's own Cognito pool, whose key set the stack names; two for a discovered issuer), once per container.",
    '',
  ].join('\n');
