import { API_BASE_PATH, SECRET_ID_PATTERN } from './limits';

/**
 * The web pages of docs/client.md §4, as the stack (CloudFront in front of S3) and local mode (`npm
 * start`) both serve them: which file answers which path, and the headers every page carries.
 */

/** Built by the `pages/` workspace (`npm ci` runs its prepare script), relative to the repository. */
export const PAGES_BUILD_DIR = 'pages/dist';

export const PAGE_FILES = {
  /** `{site_url}/` */
  share: 'index.html',
  /** `{site_url}/<id>`: a secret's link. */
  reveal: 'reveal.html',
  /** `{site_url}/request`, `/r/<id>` and `/r/<id>/receive`: a secret request's three pages (requester, sender, requester again). */
  request: 'request.html',
} as const;

/** The deploy-time values the pages need, served beside them as this file (built by lambdas/config/settings.ts pagesConfig). */
export const PAGES_CONFIG_FILE = 'config.json';

/** config.json: the settings registry's `pages` rows, and signIn. */
export interface PagesConfig {
  /** open or signed-in (create-access.ts). */
  readonly createAccess: string;
  /** Wrong passphrases a gated secret allows (limits.ts GATE.attempts by default). */
  readonly passphraseAttempts: number;
  /** signed-in: where the share page signs in (authorization code with PKCE) and whose token it sends. */
  readonly signIn?: { readonly issuer: string; readonly clientId: string; readonly audience: string };
}

/** Requests under this prefix go to the API; everything else is a page or one of its files. */
export const API_PATH_PREFIX = API_BASE_PATH.slice(0, API_BASE_PATH.indexOf('/', 1) + 1);

/** A secret's link path, `/<id>`, is answered with the reveal page. */
export const REVEAL_PATH_PATTERN = new RegExp(`^/${SECRET_ID_PATTERN.source.replace(/^\^|\$$/g, '')}$`);

/** The paths of a secret request's pages, answered with the request page. */
export const REQUEST_PATH_PATTERN = new RegExp(`^/(request|r/${SECRET_ID_PATTERN.source.replace(/^\^|\$$/g, '')}(/receive)?)$`);

/** Browsers check back on every load (a deploy changes the files at once); the edge caches them until a deploy invalidates it. */
export const PAGE_CACHE_CONTROL = 'no-cache';

/**
 * Only this origin's own files, no inline code, nothing framed: the pages handle keys and plaintext,
 * so no other script may run beside them. `require-trusted-types-for` turns any future
 * `innerHTML`-style sink into an error; the pages write text only. A `signed-in` deployment's
 * share page also reaches its OpenID provider (discovery and token endpoint): those origins alone
 * are added to connect-src.
 */
export const contentSecurityPolicy = (signInOrigins: readonly string[] = []): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    ["connect-src 'self'", ...signInOrigins].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
  ].join('; ');

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * Every page response's security headers (docs/client.md §4). The stack's CloudFront response headers
 * policy is built from these, and local mode sends them as they are, so both answer alike (over
 * local mode's plain HTTP, browsers ignore HSTS). HSTS lasts two years; `preload` is left to the
 * owner of a custom domain, since it binds the domain and its subdomains to HTTPS for good.
 */
export const PAGE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
} as const;

/** PAGE_HEADERS of a deployment whose share page signs in at these origins. */
export const pageHeaders = (signInOrigins: readonly string[]): Record<keyof typeof PAGE_HEADERS, string> => ({
  ...PAGE_HEADERS,
  'content-security-policy': contentSecurityPolicy(signInOrigins),
});

/**
 * Headers between the distribution and the API. Behind CloudFront, API Gateway sees an edge
 * server's address; the distribution forwards the viewer's in `cloudfront-viewer-address`, and
 * adds `originSecret`, a value generated at deploy time that only it and the functions know, so
 * that a caller of the API's own URL cannot pass off an address of its choosing.
 */
export const EDGE_HEADERS = {
  viewerAddress: 'cloudfront-viewer-address',
  originSecret: 'x-origin-secret',
  /**
   * The viewer's IP alone, written by a CloudFront function over any value the viewer sent, for
   * the web ACL's per-address rate rule (lib/waf.ts): WAF reads a forwarded address as a bare IP,
   * and `cloudfront-viewer-address` carries the port after it.
   */
  viewerIp: 'x-viewer-ip',
} as const;
