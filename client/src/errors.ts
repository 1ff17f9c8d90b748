import { MAX_BODY_BYTES } from '../../contract/limits';

/** Every failure the library reports, told apart by `kind`; no message carries a key, a webhook secret or content. */

export type OnetimeErrorKind = 'input' | 'link' | 'gone' | 'passphrase' | 'rate-limited' | 'too-large' | 'service' | 'network';

export abstract class OnetimeError extends Error {
  abstract readonly kind: OnetimeErrorKind;
}

/** An argument the library refuses before any request: bad options, a missing API key. */
export class InputError extends OnetimeError {
  readonly kind = 'input';
  override readonly name = 'InputError';
}

/** The link cannot open the secret: `malformed` (no request made), `undecryptable` (view used), `mismatch` (fingerprint). */
export class LinkError extends OnetimeError {
  readonly kind = 'link';
  override readonly name = 'LinkError';

  private constructor(
    readonly reason: 'malformed' | 'undecryptable' | 'mismatch',
    message: string,
  ) {
    super(message);
  }

  static malformed(problem: string): LinkError {
    return new LinkError('malformed', `invalid link: ${problem}`);
  }

  static keyMismatch(): LinkError {
    return new LinkError(
      'mismatch',
      "refusing to encrypt: the request's public key does not match the link's fingerprint (the link was altered, or the key was swapped on its way); ask the requester for a new link",
    );
  }

  static undecryptable(): LinkError {
    return new LinkError('undecryptable', 'cannot decrypt the secret: the link is wrong or the secret is damaged');
  }
}

/** 404 for a secret; `burned`: this reveal's wrong passphrase took the last attempt. */
export class SecretGoneError extends OnetimeError {
  readonly kind = 'gone';
  override readonly name = 'SecretGoneError';
  constructor(
    message = 'the secret does not exist or is gone',
    readonly burned = false,
  ) {
    super(message);
  }

  static burned(): SecretGoneError {
    return new SecretGoneError('wrong passphrase: that was the last attempt, and the secret has been deleted', true);
  }
}

/** 403 of a gated secret, no view used: `wrong` (`attemptsLeft` remain) or `required` (link not marked "#p."). */
export class PassphraseError extends OnetimeError {
  readonly kind = 'passphrase';
  override readonly name = 'PassphraseError';

  constructor(
    readonly reason: 'wrong' | 'required',
    readonly attemptsLeft: number,
  ) {
    super(
      reason === 'wrong'
        ? `wrong passphrase: ${attemptsLeft} ${attemptsLeft === 1 ? 'attempt' : 'attempts'} left before the secret is deleted`
        : 'the secret needs a passphrase, but the link is not marked for one ("#p."): ask the sender for the whole link',
    );
  }
}

/** 429 that was not retried, or still came after the retries: try again at `retryAt` (ms since the epoch). */
export class RateLimitedError extends OnetimeError {
  readonly kind = 'rate-limited';
  override readonly name = 'RateLimitedError';
  constructor(
    message: string,
    readonly retryAfterMs: number,
    readonly retryAt: number,
  ) {
    super(message);
  }
}

/** The request body would exceed the service's limit (checked before uploading), or the service said 413. */
export class PayloadTooLargeError extends OnetimeError {
  readonly kind = 'too-large';
  override readonly name = 'PayloadTooLargeError';
  readonly limitBytes = MAX_BODY_BYTES;
  constructor(
    message: string,
    /** The most content that fits, when the library measured it. */
    readonly maxContentBytes?: number,
  ) {
    super(message);
  }
}

/** Any other answer of the service that is not a success; the message is the service's `{error}`. */
export class ServiceError extends OnetimeError {
  readonly kind = 'service';
  override readonly name = 'ServiceError';
  constructor(
    message: string,
    readonly status: number,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/** The service could not be reached, or did not answer in time. */
export class NetworkError extends OnetimeError {
  readonly kind = 'network';
  override readonly name = 'NetworkError';
}
