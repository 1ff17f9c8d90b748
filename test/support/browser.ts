import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

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
