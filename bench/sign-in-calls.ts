import type { CreateAccessMode } from '#contract/create-access';
import { api, freshClientAddress } from '#test/support/api';
import { ROUND_TRIP_CASES, usageOf, type RoundTripCase } from '#test/support/round-trip-cases';
import { signIn } from '#test/support/sign-in';
import type { LocalServer } from '#test/support/local-server';

/**
 * Whether createAccess=signed-in adds DynamoDB calls: every round-trip case (one request per
 * route and size, test/support/round-trip-cases.ts) sent to local mode on DynamoDB Local once
 * open and once signed-in, where every key the cases mint is minted with a token the local
 * OpenID provider issued to its test user; plus what only a signed-in deployment has, a key minted
 * without a token (reveal-only) and a claim with one. Calls are counted by local mode's SDK
 * middleware (its x-local-dynamodb-calls header), the same count the round-trip table shows.
 */

export interface SignInCallsRow {
  name: string;
  open: number;
  signedIn: number;
}

/** Local mode with its request log (which counts the calls), started in one access mode. */
export type StartCountingLocalMode = (createAccess: CreateAccessMode) => Promise<LocalServer>;

/** What a recipient does on a signed-in deployment without signing in; on an open one, the same requests. */
const WITHOUT_A_TOKEN: readonly RoundTripCase[] = [
  {
    name: 'POST /keys without a token (signed-in: a reveal-only key)',
    payloadBytes: 0,
    calls: 2,
    send: (baseUrl) => api('POST', '/keys', { baseUrl, localAddress: freshClientAddress() }),
  },
  {
    name: 'GET /secrets/:id 1 KB, last view, by a key minted without a token',
    payloadBytes: 1024,
    calls: 2,
    send: async (baseUrl, signInToken) => {
      const headers: Record<string, string> = signInToken ? { authorization: `Bearer ${signInToken}` } : {};
      const creator = await api<{ key: string }>('POST', '/keys', { baseUrl, localAddress: freshClientAddress(), headers });
      const secret = await api<{ id: string }>('POST', '/secrets', { baseUrl, key: creator.body.key, json: { data: 'aGVsbG8=' } });
      const recipient = await api<{ key: string }>('POST', '/keys', { baseUrl, localAddress: freshClientAddress() });
      return api('GET', `/secrets/${secret.body.id}`, { baseUrl, key: recipient.body.key });
    },
  },
];

async function countCalls(server: LocalServer, signInToken: string | undefined): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const roundTripCase of [...ROUND_TRIP_CASES, ...WITHOUT_A_TOKEN]) {
    const response = await roundTripCase.send(server.baseUrl, signInToken);
    if (response.status >= 300) throw new Error(`${roundTripCase.name} answered ${response.status}: ${response.raw.slice(0, 200)}`);
    calls.set(roundTripCase.name, usageOf(response).calls);
  }
  return calls;
}

/** Runs the cases on an open local mode, then on a signed-in one (one at a time: each reads the secrets stream). */
export async function measureSignInCalls(startLocalMode: StartCountingLocalMode): Promise<SignInCallsRow[]> {
  const withServer = async (mode: CreateAccessMode, work: (server: LocalServer) => Promise<Map<string, number>>) => {
    const server = await startLocalMode(mode);
    try {
      return await work(server);
    } finally {
      await server.stop();
    }
  };
  const open = await withServer('open', (server) => countCalls(server, undefined));
  const signedIn = await withServer('signed-in', async (server) => {
    const issuer = /OpenID provider at (\S+),/.exec(server.output())?.[1];
    if (!issuer) throw new Error(`signed-in local mode named no OpenID provider:\n${server.output()}`);
    const token = await signIn({ issuer, pageOrigin: new URL(server.baseUrl).origin });
    return countCalls(server, token);
  });
  return [...open].map(([name, calls]) => ({ name, open: calls, signedIn: signedIn.get(name) ?? Number.NaN }));
}

const verdict = (row: SignInCallsRow): string => {
  const added = row.signedIn - row.open;
  if (added === 0) return 'adds no call';
  return Number.isNaN(added) ? '**not measured**' : `**${added > 0 ? 'adds' : 'saves'} ${Math.abs(added)}**`;
};

export const renderSignInCalls = (rows: readonly SignInCallsRow[]): string => {
  const adding = rows.filter((row) => row.signedIn !== row.open).length;
  return [
    '### DynamoDB calls per request, open and signed-in',
    '',
    `Every round-trip case of section 1 (\`bench/sign-in-calls.ts\`), sent to local mode on DynamoDB Local once with createAccess=open and once with signed-in, where every key a case mints (and the POST /keys row) sends a token local mode's OpenID provider issued to its test user; and the requests of a recipient who never signs in. Calls as local mode's SDK middleware counts them. ${adding === 0 ? `Signed-in adds no DynamoDB call to any of the ${rows.length} requests.` : `**${adding} of ${rows.length} requests make a different number of calls.**`}`,
    '',
    '| request | calls, open | calls, signed-in | verdict |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.name} | ${row.open} | ${row.signedIn} | ${verdict(row)} |`),
    '',
  ].join('\n');
};
