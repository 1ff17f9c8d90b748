import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type SettingRow, settingRows } from '#lambdas/config/settings';

/**
 * Writes the settings tables of docs/deploy.md (context) and docs/local-mode.md (environment)
 * from the registry (lambdas/config/settings.ts), between their markers: `npm run docs:settings`.
 * test/unit/config/settings-docs.test.ts fails when a table and the registry disagree.
 */

const ROOT = path.resolve(__dirname, '..');
const BEGIN = '<!-- settings table: written by npm run docs:settings from lambdas/config/settings.ts -->';
const END = '<!-- end of settings table -->';

const shown = (value: unknown): string =>
  value === undefined
    ? 'none'
    : typeof value === 'number'
      ? value.toLocaleString('en-US')
      : `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

const TABLES = {
  'docs/deploy.md': {
    heading: 'context',
    surface: 'context',
    name: (key: string) => key,
    default: (row: SettingRow<unknown>) => row.defaultDocs ?? shown(row.default),
  },
  'docs/local-mode.md': {
    heading: 'env',
    surface: 'local',
    name: (key: string, row: SettingRow<unknown>) => row.env ?? key,
    default: (row: SettingRow<unknown>) => row.localDefaultDocs ?? row.defaultDocs ?? shown(row.localDefault ?? row.default),
  },
} as const;

/** Each file as it is, and as the registry would write it. */
export const settingsDocs = () =>
  Object.entries(TABLES).map(([file, table]) => {
    const current = readFileSync(path.join(ROOT, file), 'utf8');
    const [before, rest] = current.split(BEGIN);
    const after = rest?.slice(rest.indexOf(END));
    if (before === undefined || after === undefined || !after.startsWith(END)) throw new Error(`${file} has no settings table markers`);
    const rows = settingRows((row) => row.in?.includes(table.surface) ?? false).map(
      ([key, row]) => `| \`${table.name(key, row)}\` | ${row.docs} | ${row.field.what} | ${table.default(row)} |`,
    );
    const written = [`${before}${BEGIN}`, '', `| ${table.heading} | meaning | must be | default |`, '|---|---|---|---|', ...rows, '', after].join(
      '\n',
    );
    return { file, current, written };
  });

if (require.main === module) for (const { file, written } of settingsDocs()) writeFileSync(path.join(ROOT, file), written);
