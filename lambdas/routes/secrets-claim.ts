import { ERRORS } from '../definitions/errors';
import { GATE } from '../definitions/limits';
import { claim, isGateRefusal } from '../use-cases/secrets';
import { claimedSecretJson } from '../http/claimed-secret-json';
import { header } from '../http/headers';
import { HttpError } from '../http/http-error';
import { JsonText, authenticatedRoute } from '../http/route';

export const handler = authenticatedRoute({}, async ({ event, now }) => {
  const secret = await claim(event.pathParameters?.id ?? '', now, header(event, GATE.proofHeader));
  if (!secret) throw new HttpError(404, ERRORS.secretNotFound);
  if (isGateRefusal(secret)) {
    const message = secret.refusal === 'proof-required' ? ERRORS.passphraseRequired : ERRORS.wrongPassphrase;
    throw new HttpError(403, message, { [GATE.attemptsLeftHeader]: String(secret.attemptsLeft) });
  }
  return { statusCode: 200, body: new JsonText(claimedSecretJson(secret)) };
});
