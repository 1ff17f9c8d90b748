// ESLint for the whole repository (docs/testing.md, "Lint and format"): typescript-eslint's
// recommended type-checked rules on every TypeScript file, each file checked against the
// tsconfig that owns it (the root one, or pages/tsconfig.json for the browser pages).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      'coverage/',
      '.data/',
      '**/dist/',
      // Written by test/integration/generated-client.test.ts, and type-checked by it.
      'test/integration/generated-client/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: globals.node,
    },
    rules: {
      // As tsc's noUnusedLocals/noUnusedParameters: `_name` parameters, and `{ omitted: _x, ...rest }` to drop a field.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Our patterns name control characters on purpose: to reject them in input (schemas, URLs, file names, queue bodies).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // @types/jest types the asymmetric matchers (expect.any, objectContaining…) as `any`, and tests put them in expected values.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // Test doubles stand in for async contracts (handlers, fetch) and must reject, not throw, as the real ones do.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The pages run in the browser (pages/tsconfig.json adds the DOM library).
    files: ['pages/src/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },
  {
    // Plain JavaScript configs and examples: no tsconfig owns them, so no type information.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    // CommonJS configs (Jest's, dependency-cruiser's) load their dependencies with require.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
