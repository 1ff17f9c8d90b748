import { ERRORS } from '#contract/errors';
import { GATE } from '#contract/limits';
import { STILL_IN_FLIGHT, claim, isGateRefusal } from '../use-cases/secrets';
import { claimedSecretJson } from '../http/claimed-secret-json';
import { header } from '../http/headers';
import { HttpError } from '../http/http-error';
import { JsonText, authenticatedRoute, stillInFlight } from '../http/route';

export const handler = authenticatedRoute({}, async ({ event, caller, idempotent }) => {
  // The claim's own time, not the request's: its retry window starts as it sends its update.
  const secret = await claim(event.pathParameters?.id ?? '', Date.now(), caller.keyHash, header(event, GATE.proofHeader), idempotent);
  if (secret === STILL_IN_FLIGHT) throw stillInFlight();
  if (!secret) throw new HttpError(404, ERRORS.secretNotFound);
  if (isGateRefusal(secret)) {
    const message = secret.refusal === 'proof-required' ? ERRORS.passphraseRequired : ERRORS.wrongPassphrase;
    throw new HttpError(403, message, { [GATE.attemptsLeftHeader]: String(secret.attemptsLeft) });
  }
  return { statusCode: 200, body: new JsonText(claimedSecretJson(secret)) };
});
