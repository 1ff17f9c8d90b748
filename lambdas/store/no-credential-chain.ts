/**
 * Stands in for @aws-sdk/credential-provider-node in the functions' bundles (an esbuild alias in
 * lib/bundling.ts). Every SDK client still names that package's default provider chain (SSO, INI
 * files, process, web identity, IMDS and the STS and SSO clients they use), and esbuild bundles all
 * of it whether or not it runs. On Lambda the credentials are in the environment, and every client
 * of the functions is given `credentials: fromEnv()` (lambdas/store/sdk-settings.ts), so the chain is
 * never asked: if a client built without them ever were, it fails loudly instead of searching.
 */
export function defaultProvider(): never {
  throw new Error('the functions read AWS credentials from the environment: give every SDK client sdkClientSettings()');
}
