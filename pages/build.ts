import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import english from './src/i18n/messages/en.json';
import { placeholdersOf, type MessageKey } from './src/i18n/format';

/**
 * `npm run build -w pages` (and `npm ci`, through prepare): both pages' scripts into dist/, split
 * so that the code they share and each language's catalogue are chunks of their own (a page loads
 * English with its code, another language only when chosen), the stylesheet and icon, and the
 * HTML: each template with the parts every page shares, and its `data-i18n` elements filled from
 * the English catalogue, which a page without JavaScript, and any page before its script runs, shows.
 */

const ROOT = __dirname;
const DIST = path.join(ROOT, 'dist');
const PAGES = ['index.html', 'reveal.html', 'request.html'];

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The English words of a static text; a message with placeholders or plural forms is the script's to write. */
function staticText(key: string, page: string): string {
  const message = Object.hasOwn(english, key) ? english[key as MessageKey] : undefined;
  if (typeof message !== 'string' || placeholdersOf(message).size > 0) {
    throw new Error(`${page}: data-i18n="${key}" must name an English message without placeholders or plural forms`);
  }
  return escapeHtml(message);
}

/**
 * What every page shares, written once: its <head> around the page's own <title> and <script>
 * (which are all a template's head holds), and the language switch in its top header, after
 * what the page puts there (a link, on one line); and where a template says so, the revealed secret.
 */
const HEAD_BEFORE_TITLE = [
  '<meta charset="utf-8" />',
  '<meta name="viewport" content="width=device-width, initial-scale=1" />',
  '<meta name="robots" content="noindex" />',
];
const HEAD_AFTER_TITLE = ['<link rel="icon" href="/favicon.svg" type="image/svg+xml" />', '<link rel="stylesheet" href="/site.css" />'];
const LANGUAGE_SWITCH = [
  '<div class="language" hidden>',
  '  <label for="language" data-i18n="language.label"></label>',
  '  <select id="language" data-testid="language"></select>',
  '</div>',
];
/** The revealed secret, written once for the reveal page and the request's receive page (dom.ts showSecret fills it). */
const REVEALED_SECRET = [
  '<section id="text-result" aria-labelledby="text-title" hidden>',
  '  <h2 id="text-title" data-i18n="reveal.textTitle"></h2>',
  '  <pre id="secret-text" data-testid="secret-text" tabindex="0" aria-labelledby="text-title"></pre>',
  '  <button type="button" id="copy-text" data-i18n="copy.button"></button>',
  '  <p id="copy-status" role="status" hidden></p>',
  '</section>',
  '<section id="file-result" aria-labelledby="file-title" hidden>',
  '  <h2 id="file-title" data-i18n="reveal.fileTitle"></h2>',
  '  <p><a id="secret-file" class="button" data-testid="secret-file" href="#"></a></p>',
  '</section>',
];
const TEMPLATE_REVEALED_SECRET = /^( *)<!-- the revealed secret -->$/m;
const TEMPLATE_HEAD = /^( *)<head>\n *(<title\b[^>]*><\/title>)\n *(<script\b[^>]*><\/script>)\n *<\/head>$/m;
const TEMPLATE_TOP = /^( *)<header class="top">(.*)<\/header>$/m;

const indented = (lines: readonly string[], indent: string): string => lines.map((line) => indent + line).join('\n');

function withSharedParts(html: string, page: string): string {
  const head = TEMPLATE_HEAD.exec(html);
  const top = TEMPLATE_TOP.exec(html);
  if (!head || !top)
    throw new Error(`${page}: a template's <head> holds its <title> and <script> only, and its top is a one-line <header class="top">`);
  const [, headIndent = '', title = '', script = ''] = head;
  const inner = `${headIndent}  `;
  const fullHead = [
    `${headIndent}<head>`,
    indented(HEAD_BEFORE_TITLE, inner),
    inner + title,
    indented(HEAD_AFTER_TITLE, inner),
    inner + script,
    `${headIndent}</head>`,
  ];
  const [, topIndent = '', own = ''] = top;
  const fullTop = [
    `${topIndent}<header class="top">`,
    indented(own ? [own, ...LANGUAGE_SWITCH] : LANGUAGE_SWITCH, `${topIndent}  `),
    `${topIndent}</header>`,
  ];
  return html
    .replace(TEMPLATE_HEAD, () => fullHead.join('\n'))
    .replace(TEMPLATE_TOP, () => fullTop.join('\n'))
    .replace(TEMPLATE_REVEALED_SECRET, (_, indent: string) => indented(REVEALED_SECRET, indent));
}

/** Fills each empty `<tag … data-i18n="key" …></tag>` of our own templates (no general HTML parsing needed). */
const renderPage = (html: string, page: string): string =>
  withSharedParts(html, page).replace(
    /(<(\w+)\b[^>]*\sdata-i18n="([^"]+)"[^>]*>)(<\/\2>)/g,
    (_, open: string, _tag: string, key: string, close: string) => open + staticText(key, page) + close,
  );

async function main(): Promise<void> {
  rmSync(DIST, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/share.ts', 'src/reveal.ts', 'src/request.ts', 'static/site.css', 'static/favicon.svg'],
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    outdir: DIST,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    loader: { '.svg': 'copy' },
    logLevel: 'warning',
  });
  for (const page of PAGES) {
    const rendered = renderPage(readFileSync(path.join(ROOT, 'static', page), 'utf8'), page);
    if (rendered.includes('data-i18n=""')) throw new Error(`${page}: an empty data-i18n`);
    writeFileSync(path.join(DIST, page), rendered);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
