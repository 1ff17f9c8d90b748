import { STOP_SIGN_IN, type SignInProcessReport } from './sign-in-provider-process';
import { startLocalSignInProvider, type LocalSignInOptions, type LocalSignInProvider } from './sign-in-provider';

/**
 * The local OpenID provider's process (see sign-in-provider-process.ts). It stops when local mode
 * tells it to, when local mode is gone, or on SIGTERM.
 */

/** Local mode passes its options; run alone (a test's second issuer), they are in LOCAL_OIDC_OPTIONS. */
const options = JSON.parse(process.argv[2] ?? process.env.LOCAL_OIDC_OPTIONS ?? '{"port":0,"pageOrigins":[]}') as LocalSignInOptions;
let provider: LocalSignInProvider | undefined;
let stopping = false;

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    await provider?.stop();
  } finally {
    process.exit(0);
  }
}

function report(message: SignInProcessReport, then: () => void = () => undefined): void {
  if (process.send) process.send(message, then);
  else then();
}

process.on('message', (message) => {
  if (message === STOP_SIGN_IN) void stop();
});
process.on('disconnect', () => void stop());
// Ctrl-C and a closed terminal signal the whole process group: local mode stops this process in its turn.
process.on('SIGINT', () => undefined);
process.on('SIGHUP', () => undefined);
process.on('SIGTERM', () => void stop());

startLocalSignInProvider(options).then(
  (started) => {
    provider = started;
    if (!process.send) console.log(`OpenID provider at ${started.issuer}`);
    report({ outcome: 'ready', issuer: started.issuer });
  },
  (error: unknown) => {
    report({ outcome: 'failed', message: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
  },
);
