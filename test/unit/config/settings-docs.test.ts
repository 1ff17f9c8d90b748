import { settingsDocs } from '#scripts/settings-docs';

/** The docs' settings tables are the registry's (lambdas/config/settings.ts): `npm run docs:settings` writes them. */
test.each(settingsDocs().map((doc) => [doc.file, doc] as const))('%s: its settings table is the registry’s', (_, { current, written }) => {
  expect(current).toBe(written);
});
