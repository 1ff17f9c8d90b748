/** A fetch that answers from a script and records what it was asked: the client's unit tests need no server. */

export type Scripted = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

export interface FakeFetch {
  fetch: typeof fetch;
  calls: { url: string; method: string; headers: Record<string, string>; body: string | undefined }[];
}

export function fakeFetch(...script: Scripted[]): FakeFetch {
  const calls: FakeFetch['calls'] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls.push({
      url: input instanceof Request ? input.url : String(input),
      method: init?.method ?? 'GET',
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? init.body : undefined,
    });
    const next = script.shift();
    if (next === undefined) throw new Error('the fake fetch was called more often than scripted');
    if (next instanceof Error) throw next;
    return new Response(next.body === undefined ? null : JSON.stringify(next.body), {
      status: next.status,
      headers: { 'content-type': 'application/json', ...next.headers },
    });
  };
  return { fetch, calls };
}

/** What undici's fetch throws when nothing listens: a TypeError whose cause has the code. */
export const connectionRefused = (): Error =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });

/** The error `work` fails with; fails the test when it succeeds. */
export async function failureOf(work: Promise<unknown>): Promise<Error> {
  const outcome = await work.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a failure');
  return outcome;
}
