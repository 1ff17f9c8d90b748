import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import {
  PAGE_CACHE_CONTROL,
  PAGE_FILES,
  PAGE_HEADERS,
  PAGES_BUILD_DIR,
  PAGES_CONFIG_FILE,
  REQUEST_PATH_PATTERN,
  REVEAL_PATH_PATTERN,
  pageHeaders,
  type PagesConfig,
} from '#contract/site';

/**
 * The pages as the stack serves them through CloudFront (its function's rewrites, its response
 * headers policy). Read once at start-up: a dozen small files.
 */

export interface PageFile {
  body: Buffer;
  contentType: string;
  /** PAGE_HEADERS, with the sign-in issuer's origin in connect-src when the deployment signs in. */
  headers: Readonly<Record<string, string>>;
}

export type Pages = ReadonlyMap<string, PageFile>;

/** The kinds of file the pages' build writes; hand-listed rather than a media-type library for four entries. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const ROOT = path.resolve(__dirname, '..');

/** The build's files, and config.json as the stack's bucket deployment writes it (config/settings.ts pagesConfig). */
export function loadPages(config: PagesConfig, directory = path.join(ROOT, PAGES_BUILD_DIR)): Pages {
  if (!existsSync(path.join(directory, PAGE_FILES.share))) {
    throw new Error(`the pages are not built in ${directory}: run npm ci, or npm run build -w pages`);
  }
  const headers = pageHeaders(config.signIn ? [new URL(config.signIn.issuer).origin] : []);
  const files = readdirSync(directory, { withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map<string, PageFile>([
    ...files.map(({ name }): [string, PageFile] => [
      `/${name}`,
      { body: readFileSync(path.join(directory, name)), contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream', headers },
    ]),
    [`/${PAGES_CONFIG_FILE}`, { body: Buffer.from(JSON.stringify(config)), contentType: 'application/json', headers }],
  ]);
}

/** The file a path is answered with: CloudFront's default root object, and its function's rewrite of a secret's link. */
export function pageFileFor(pathname: string): string {
  if (pathname === '/') return `/${PAGE_FILES.share}`;
  if (REVEAL_PATH_PATTERN.test(pathname)) return `/${PAGE_FILES.reveal}`;
  if (REQUEST_PATH_PATTERN.test(pathname)) return `/${PAGE_FILES.request}`;
  return pathname;
}

function answer(response: ServerResponse, status: number, { body, contentType, headers }: PageFile, headOnly: boolean): void {
  response.writeHead(status, { ...headers, 'content-type': contentType, 'cache-control': PAGE_CACHE_CONTROL, 'content-length': body.length });
  response.end(headOnly ? undefined : body);
}

const plainText = (text: string): PageFile => ({ body: Buffer.from(text), contentType: 'text/plain; charset=utf-8', headers: PAGE_HEADERS });

/** GET and HEAD, as the distribution's page behaviour allows; 404 for a path that is no file of the build. */
export function servePage(pages: Pages, request: IncomingMessage, response: ServerResponse, pathname: string): void {
  const headOnly = request.method === 'HEAD';
  if (request.method !== 'GET' && !headOnly) {
    response.setHeader('allow', 'GET, HEAD');
    answer(response, 405, plainText('method not allowed\n'), false);
    return;
  }
  const file = pages.get(pageFileFor(pathname));
  answer(response, file ? 200 : 404, file ?? plainText('not found\n'), headOnly);
}
