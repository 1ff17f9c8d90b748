import { runService } from './child-service';
import { startLocalSignInProvider, type LocalSignInOptions } from './sign-in-provider';

/** The local OpenID provider's process (see startSignInProviderProcess). */

/** Local mode passes its options; run alone (a test's second issuer), they are in LOCAL_OIDC_OPTIONS. */
const options = JSON.parse(process.argv[2] ?? process.env.LOCAL_OIDC_OPTIONS ?? '{"port":0,"pageOrigins":[]}') as LocalSignInOptions;

runService(
  () => startLocalSignInProvider(options),
  ({ issuer }) => {
    if (!process.send) console.log(`OpenID provider at ${issuer}`);
    return issuer;
  },
);
