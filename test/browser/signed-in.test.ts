import { LOCAL_SIGN_IN } from '#local/sign-in-accounts';
import { eventually } from '../support/eventually';
import type { PagesUnderTest } from '../support/browser';
import { pagesUnderTestForThisFile } from './support/pages-for-this-file';

/**
 * A `signed-in` local mode (CREATE_ACCESS=signed-in, its real OpenID provider) in Chromium: the
 * share page asks to sign in before it creates, signs in at the provider with the authorization
 * code flow and PKCE, shares; the recipient reveals in another browser that never signs in.
 */

let pages: PagesUnderTest;
pagesUnderTestForThisFile((started) => (pages = started), { CREATE_ACCESS: 'signed-in' });

test('sign in on the share page, share, and reveal in a browser that never signs in', async () => {
  const sender = await pages.person();
  const page = await sender.newPage();
  await page.goto(`${pages.siteUrl}/`);

  // Before signing in there is no form to create with.
  const signIn = page.getByTestId('sign-in');
  await signIn.waitFor();
  await expect(page.getByTestId('share-submit').isVisible()).resolves.toBe(false);
  await page.getByText('only signed-in members of the team can create secrets').waitFor();

  // The provider's login page: a wrong password is refused, the test user's is taken.
  await signIn.click();
  await page.getByLabel('Name').fill(LOCAL_SIGN_IN.testUser.login);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Wrong name or password.').waitFor();
  await page.getByLabel('Name').fill(LOCAL_SIGN_IN.testUser.login);
  await page.getByLabel('Password').fill(LOCAL_SIGN_IN.testUser.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // Back on the share page, signed in: the form, and an address bar without the code. The page
  // takes the code out of the address once its settings have loaded; until it has a key, its
  // submit button stays disabled.
  await page.waitForURL(`${pages.siteUrl}/`);
  await eventually(async () => expect(await page.getByTestId('share-submit').isEnabled()).toBe(true));
  await expect(page.getByTestId('sign-in').isVisible()).resolves.toBe(false);

  await page.getByTestId('share-text').fill('the team’s deploy password');
  await page.getByTestId('share-submit').click();
  await page.getByTestId('share-link').waitFor({ timeout: 30_000 });
  const link = await page.getByTestId('share-link').inputValue();
  expect(link.startsWith(`${pages.siteUrl}/`)).toBe(true);

  // A second secret in the same session needs no second sign-in.
  await page.getByRole('button', { name: 'Share another secret' }).click();
  await page.getByTestId('share-text').fill('a second one');
  await page.getByTestId('share-submit').click();
  await page.getByTestId('share-link').waitFor();

  const recipient = await pages.person();
  const reveal = await recipient.newPage();
  await reveal.goto(link);
  await reveal.getByTestId('reveal-button').click();
  await reveal.getByTestId('secret-text').waitFor();
  await expect(reveal.getByTestId('secret-text').textContent()).resolves.toBe('the team’s deploy password');
  await expect(reveal.getByTestId('sign-in').count()).resolves.toBe(0);

  expect(pages.problems).toEqual({ cspViolations: [], errors: [] });
});
