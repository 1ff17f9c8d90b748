import { accountRefusal } from '#lambdas/rules/allowed-accounts';

const verified = (email: string) => ({ email, email_verified: true });
const lists = { emailDomains: undefined, groups: undefined, groupsClaim: 'groups' };

describe('accountRefusal', () => {
  test("'any' lets in every account, even one without an email", () => {
    expect(accountRefusal({}, 'any')).toBeUndefined();
  });

  test.each([
    ['one of the domains', verified('ann@b.example'), undefined],
    ['a domain in capitals', verified('ann@A.EXAMPLE'), undefined],
    ['another domain', verified('ann@c.example'), 'its email domain is not one this deployment allows'],
    ['a domain that ends like an allowed one', verified('ann@evil-a.example'), 'its email domain is not one this deployment allows'],
    ['an unverified email', { email: 'ann@a.example', email_verified: 'true' }, 'its email is missing or not verified'],
  ])('email domains: %s', (_, claims, refusal) => {
    expect(accountRefusal(claims, { ...lists, emailDomains: ['a.example', 'b.example'] })).toBe(refusal);
  });

  test.each([
    ['a list naming an allowed group', { roles: ['staff', 'onetime'] }, undefined],
    ['one allowed group as a string', { roles: 'onetime' }, undefined],
    ['groups allowed only in another claim', { groups: ['onetime'] }, 'it is in none of the groups this deployment allows'],
    ['no allowed group', { roles: ['staff'] }, 'it is in none of the groups this deployment allows'],
  ])('groups, in the claim named: %s', (_, claims, refusal) => {
    expect(accountRefusal(claims, { ...lists, groups: ['onetime'], groupsClaim: 'roles' })).toBe(refusal);
  });

  test('both lists: an account must match each', () => {
    const both = { emailDomains: ['a.example'], groups: ['onetime'], groupsClaim: 'groups' };
    expect(accountRefusal({ ...verified('ann@a.example'), groups: ['onetime'] }, both)).toBeUndefined();
    expect(accountRefusal({ ...verified('ann@a.example'), groups: ['staff'] }, both)).toBe('it is in none of the groups this deployment allows');
    expect(accountRefusal({ ...verified('ann@c.example'), groups: ['onetime'] }, both)).toBe('its email domain is not one this deployment allows');
  });
});
