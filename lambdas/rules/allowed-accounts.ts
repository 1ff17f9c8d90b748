import type { AllowedAccounts } from '#contract/create-access';

/** Why a token's account is not let in, or undefined; an unverified email could name any domain, so it counts not. */
export function accountRefusal(claims: Readonly<Record<string, unknown>>, allowed: AllowedAccounts): string | undefined {
  if (allowed === 'any') return undefined;
  if (allowed.emailDomains) {
    const { email, email_verified: verified } = claims;
    if (typeof email !== 'string' || verified !== true) return 'its email is missing or not verified';
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (!allowed.emailDomains.includes(domain)) return 'its email domain is not one this deployment allows';
  }
  if (allowed.groups) {
    const claim = claims[allowed.groupsClaim];
    const groups = Array.isArray(claim) ? claim : [claim];
    if (!groups.some((group) => typeof group === 'string' && allowed.groups?.includes(group))) {
      return 'it is in none of the groups this deployment allows';
    }
  }
  return undefined;
}
