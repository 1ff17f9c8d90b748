import * as path from 'node:path';
import { forkService } from './child-service';
import type { LocalSignInOptions, LocalSignInProvider } from './sign-in-provider';

/**
 * Runs the local OpenID provider in a process of its own, as a deployment's issuer is a service
 * of its own. It also runs without local mode's `--conditions=import` (which Middy needs):
 * under it, tsx hands the JSON files that oidc-provider's dependencies require (koa's `statuses`)
 * to Node as JavaScript, and the provider cannot load.
 */

const ENTRY = path.join(__dirname, 'sign-in-provider-entry.ts');

/** This process's flags, tsx's loader included, without any `--conditions`. */
function execArgvWithoutConditions(): string[] {
  const flags: string[] = [];
  const given = process.execArgv;
  for (let index = 0; index < given.length; index++) {
    const flag = given[index] ?? '';
    if (flag === '--conditions' || flag === '-C') index++;
    else if (!flag.startsWith('--conditions=')) flags.push(flag);
  }
  return flags;
}

export async function startSignInProviderProcess(options: LocalSignInOptions): Promise<LocalSignInProvider> {
  const { ready: issuer, stop } = await forkService<string>(
    ENTRY,
    options,
    { execArgv: execArgvWithoutConditions() },
    { name: "the local OpenID provider's process", lost: 'signing in no longer works' },
  );
  return { issuer, stop };
}
