import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type SettingName, type SettingRow, settingRows } from '#lambdas/config/settings';

/**
 * The settings tables of docs/deploy.md (context) and docs/local-mode.md (environment), written
 * from the registry (lambdas/config/settings.ts) between their markers: `npm run docs:settings`.
 * test/unit/config/settings-docs.test.ts fails when a table and the registry disagree.
 */

const ROOT = path.resolve(__dirname, '..');
const BEGIN = '<!-- settings table: written by npm run docs:settings from lambdas/config/settings.ts -->';
const END = '<!-- end of settings table -->';

const shown = (value: unknown): string =>
  value === undefined ? 'none' : typeof value === 'number' ? value.toLocaleString('en-US') : `\`${String(value)}\``;

interface SettingsTable {
  readonly file: string;
  readonly heading: string;
  readonly keep: (row: SettingRow<unknown>) => boolean;
  readonly name: (name: SettingName, row: SettingRow<unknown>) => string;
  readonly default: (row: SettingRow<unknown>) => string;
}

const TABLES: readonly SettingsTable[] = [
  {
    file: 'docs/deploy.md',
    heading: 'context',
    keep: (row) => row.context === true,
    name: (name) => name,
    default: (row) => row.defaultDocs ?? shown(row.default),
  },
  {
    file: 'docs/local-mode.md',
    heading: 'env',
    keep: (row) => row.local === true,
    name: (name, row) => row.env ?? name,
    default: (row) => row.localDefaultDocs ?? row.defaultDocs ?? shown(row.localDefault ?? row.default),
  },
];

const tableOf = ({ heading, keep, name, default: byDefault }: SettingsTable): string =>
  [
    `| ${heading} | meaning | must be | default |`,
    '|---|---|---|---|',
    ...settingRows(keep).map(([key, row]) => `| \`${name(key, row)}\` | ${row.docs} | ${row.field.what} | ${byDefault(row)} |`),
  ].join('\n');

/** Each file as it is, and as the registry would write it. */
export function settingsDocs(): { file: string; current: string; written: string }[] {
  return TABLES.map((table) => {
    const current = readFileSync(path.join(ROOT, table.file), 'utf8');
    const start = current.indexOf(BEGIN);
    const end = current.indexOf(END);
    if (start < 0 || end < start) throw new Error(`${table.file} has no settings table markers`);
    return { file: table.file, current, written: `${current.slice(0, start)}${BEGIN}\n\n${tableOf(table)}\n\n${current.slice(end)}` };
  });
}

if (require.main === module) for (const { file, written } of settingsDocs()) writeFileSync(path.join(ROOT, file), written);
