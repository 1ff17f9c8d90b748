import { PROGRESS_THRESHOLD_BYTES, fetchWithProgress } from '#client/cli/progress';

const terminal = (isTTY: boolean) => {
  const written: string[] = [];
  return { isTTY, write: (text: string) => written.push(text), written };
};

const BIG = PROGRESS_THRESHOLD_BYTES + 1;

test('not a terminal: fetch is left as it is', () => {
  const inner = jest.fn() as unknown as typeof fetch;
  expect(fetchWithProgress(terminal(false), inner)).toBe(inner);
});

test('a download over 1 MiB draws a bar up to 100%, then clears its line', async () => {
  const screen = terminal(true);
  const inner = (async () => new Response(new Uint8Array(BIG), { headers: { 'content-length': String(BIG) } })) as typeof fetch;
  const response = await fetchWithProgress(screen, inner)('http://x/');
  expect((await response.arrayBuffer()).byteLength).toBe(BIG);
  expect(screen.written.at(-2)).toMatch(/^\rdownloading \[#{30}\] 100% 1\.0\/1\.0 MB$/);
  expect(screen.written.at(-1)).toBe('\r\x1b[K');
});

test('an upload over 1 MiB is streamed with its length, drawing the bar', async () => {
  const screen = terminal(true);
  let received = 0;
  let length: string | undefined;
  const inner = (async (_: unknown, init?: RequestInit) => {
    length = (init?.headers as Record<string, string>)['content-length'];
    for await (const chunk of init?.body as ReadableStream<Uint8Array>) received += chunk.length;
    return new Response('{}');
  }) as typeof fetch;
  await fetchWithProgress(screen, inner)('http://x/', { method: 'POST', body: 'x'.repeat(BIG), headers: {} });
  expect({ received, length }).toEqual({ received: BIG, length: String(BIG) });
  expect(screen.written.some((text) => text.includes('uploading   [#') && text.includes('100%'))).toBe(true);
});

test('small bodies draw nothing', async () => {
  const screen = terminal(true);
  const inner = (async () => new Response('{}', { headers: { 'content-length': '2' } })) as typeof fetch;
  await (await fetchWithProgress(screen, inner)('http://x/', { method: 'POST', body: '{}' })).text();
  expect(screen.written).toEqual([]);
});
