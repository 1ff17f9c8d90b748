import { utf8 } from '../utf8';

/**
 * A progress bar on stderr for request and response bodies over 1 MiB, when stderr is a terminal.
 * It wraps fetch rather than living in the library, which stays plain fetch for browsers: uploads
 * are counted by streaming the body (Node's fetch sends a stream with the given content-length),
 * downloads by passing the response body through a counter.
 *
 * Hand-written: the maintained bar libraries bring more (multi-bars, themes, timers) than these
 * few lines, and `progress`, already in the tree, has been unmaintained for years.
 */

export const PROGRESS_THRESHOLD_BYTES = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const BAR_WIDTH = 30;
const REDRAW_MS = 100;

export interface Terminal {
  isTTY?: boolean;
  write(text: string): unknown;
}

const megabytes = (bytes: number): string => (bytes / 1_000_000).toFixed(1);

export class ProgressBar {
  private lastDraw = 0;

  constructor(private readonly terminal: Terminal) {}

  update(label: string, done: number, total: number): void {
    const now = Date.now();
    if (done < total && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const filled = Math.round((BAR_WIDTH * done) / total);
    const percent = String(Math.floor((100 * done) / total)).padStart(3);
    this.terminal.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${percent}% ${megabytes(done)}/${megabytes(total)} MB`);
  }

  /** Erases the bar's line, so that what follows starts clean. */
  clear(): void {
    this.terminal.write('\r\x1b[K');
  }
}

function countedUpload(body: Uint8Array, bar: ProgressBar): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= body.length) {
        bar.clear();
        controller.close();
        return;
      }
      const chunk = body.subarray(sent, sent + CHUNK_BYTES);
      sent += chunk.length;
      bar.update('uploading  ', sent, body.length);
      controller.enqueue(chunk);
    },
  });
}

function countedDownload(response: Response, total: number, bar: ProgressBar): Response {
  if (response.body === null) return response;
  let received = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      received += chunk.length;
      bar.update('downloading', received, total);
      controller.enqueue(chunk);
    },
    flush: () => bar.clear(),
  });
  return new Response(response.body.pipeThrough(counter), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** `fetch`, drawing a bar for bodies over 1 MiB; plain `fetch` when stderr is not a terminal. */
export function fetchWithProgress(terminal: Terminal, inner: typeof fetch = fetch): typeof fetch {
  if (!terminal.isTTY) return inner;
  const bar = new ProgressBar(terminal);
  return async (input, init) => {
    let request = init;
    if (typeof init?.body === 'string') {
      const bytes = utf8.encode(init.body);
      if (bytes.length > PROGRESS_THRESHOLD_BYTES) {
        const headers = { ...(init.headers as Record<string, string>), 'content-length': String(bytes.length) };
        // `duplex` is required for a stream body by Node's fetch.
        request = { ...init, headers, body: countedUpload(bytes, bar), duplex: 'half' };
      }
    }
    const response = await inner(input, request);
    const total = Number(response.headers.get('content-length'));
    return total > PROGRESS_THRESHOLD_BYTES ? countedDownload(response, total, bar) : response;
  };
}
