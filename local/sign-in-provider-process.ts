import { fork } from 'node:child_process';
import * as path from 'node:path';
import type { LocalSignInOptions, LocalSignInProvider } from './sign-in-provider';

/**
 * Runs the local OpenID provider in a process of its own, as a deployment's issuer is a service
 * of its own. It also runs without local mode's `--conditions=import` (which Middy needs):
 * under it, tsx hands the JSON files that oidc-provider's dependencies require (koa's `statuses`)
 * to Node as JavaScript, and the provider cannot load.
 */

export type SignInProcessReport = { outcome: 'ready'; issuer: string } | { outcome: 'failed'; message: string };

export const STOP_SIGN_IN = 'stop';

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

export function startSignInProviderProcess(options: LocalSignInOptions): Promise<LocalSignInProvider> {
  const child = fork(ENTRY, [JSON.stringify(options)], { execArgv: execArgvWithoutConditions() });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ready = false;
  let stopping = false;
  const stop = async (): Promise<void> => {
    stopping = true;
    if (child.connected) child.send(STOP_SIGN_IN, () => undefined);
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const ended = `the local OpenID provider's process ended (${signal ?? code})`;
      if (!ready) reject(new Error(`${ended} before it was ready`));
      else if (!stopping) console.error(`${ended}: signing in no longer works; restart local mode`);
    });
    child.once('message', (report: SignInProcessReport) => {
      ready = report.outcome === 'ready';
      if (report.outcome === 'ready') resolve({ issuer: report.issuer, stop });
      else reject(new Error(report.message));
    });
  });
}
