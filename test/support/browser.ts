import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { API_BASE_PATH } from '#contract/limits';
import { startLocalServer, type LocalServer } from './local-server';

/**
 * Debian's Chromium driven by playwright-core: Playwright's own browser builds cannot be
 * downloaded here, and the distribution's package is what the README asks for.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH });
}

/** What a page printed that speaks of the Content-Security-Policy, and errors thrown in it. */
export interface PageProblems {
  cspViolations: string[];
  errors: string[];
}

export function watchForProblems(context: BrowserContext, problems: PageProblems): void {
  const watch = (page: Page): void => {
    page.on('console', (message) => {
      if (/Refused to|Content[- ]Security[- ]Policy|Trusted Type/i.test(message.text())) problems.cspViolations.push(message.text());
    });
    page.on('pageerror', (error) => problems.errors.push(error.message));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
}

/** Local mode and Chromium, started together for a file of page tests (startPagesUnderTest). */
export interface PagesUnderTest {
  server: LocalServer;
  browser: Browser;
  /** The API's base URL (`…/api/v1`). */
  baseUrl: string;
  /** The pages' origin: SITE_URL defaults to the server's own, so its links open its pages. */
  siteUrl: string;
  /** What every context made by `person` printed against the CSP, and threw. */
  problems: PageProblems;
  /** A browser of a person of its own: a fresh context (en-US unless `options` say otherwise), watched for problems. */
  person(options?: BrowserContextOptions): Promise<BrowserContext>;
  stop(): Promise<void>;
}

/**
 * Local mode on a DynamoDB Local of its own, with `env` over the page tests' defaults (in memory,
 * SITE_URL its own origin, no request log, and a key limit per address raised, since every context
 * that shares or reveals mints a key from 127.0.0.1), and Chromium beside it: on a busy machine
 * the two take well over a minute to start, hence the callers' 180 s beforeAll.
 */
export async function startPagesUnderTest(env: Record<string, string> = {}): Promise<PagesUnderTest> {
  const [server, browser] = await Promise.all([
    startLocalServer({ DYNAMODB_ENDPOINT: '', SITE_URL: '', KEYS_PER_IP_PER_HOUR: '1000', LOCAL_REQUEST_LOG: 'off', ...env }),
    launchChromium(),
  ]);
  const problems: PageProblems = { cspViolations: [], errors: [] };
  return {
    server,
    browser,
    baseUrl: server.baseUrl,
    siteUrl: server.baseUrl.slice(0, -API_BASE_PATH.length),
    problems,
    person: async (options = { locale: 'en-US' }) => {
      const context = await browser.newContext(options);
      watchForProblems(context, problems);
      return context;
    },
    stop: async () => {
      await browser.close();
      await server.stop();
    },
  };
}
