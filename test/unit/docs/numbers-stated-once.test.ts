import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REQUEST_NOTE_MAX_LENGTH } from '#contract/requests';
import { ERROR_MESSAGE_MAX_LENGTH } from '#contract/errors';
import {
  ADDRESS_RATE_LIMIT,
  EXPIRED_KEY_RETENTION_MS,
  GATE,
  IDEMPOTENCY,
  KEY_CREATION_LIMIT,
  KEY_LIFETIME_MS,
  MAX_BODY_BYTES,
  MIB,
  RATE_LIMIT,
  RECEIPT_LIFETIME_MS,
  REPLAY_RETENTION_MS,
  STORED_BYTES_LIMIT,
  VIEWS_RANGE,
  WEBHOOK_URL_MAX_LENGTH,
} from '#contract/limits';

/**
 * Issue 54 §1: each number the contract states is stated once in the docs, in docs/api.md's
 * Limits table; every other page links there. A restatement drifts the day the limit changes.
 *
 * The values are read from the definitions, so changing a limit moves the check with it. A number
 * counts as a statement of a limit only beside the words that name it ("5 wrong passphrases",
 * "100 requests a minute"), within one sentence or table cell and a few words of each other: a bare
 * 5 or 100 elsewhere (a 5 MiB payload measured, 100 runs) is no restatement. That is what keeps the
 * check precise: it looks for the phrases a writer would use, and the first test proves each
 * phrase is found where the number does live, so a rule that matches nothing cannot pass unseen.
 */

const ROOT = path.resolve(__dirname, '../../..');
const HOME = 'docs/api.md';
const DAY_MS = 24 * 60 * 60 * 1000;
/** How far apart, in characters, a number and its words may be and still be one statement. */
const NEAR = 40;

interface Rule {
  /** The limit, for the failure message. */
  name: string;
  value: number;
  /** A unit the number is written with ("days", "MiB"), or none for a bare count. */
  unit?: string;
  /** The words that name the limit near its number. */
  words: RegExp;
  /** How far apart, in characters, the number and its words may be; NEAR unless said. */
  near?: number;
}

const RULES: Rule[] = [
  // Not "attempt" alone: webhook deliveries have attempts too.
  { name: 'passphrase attempts', value: GATE.attempts, words: /passphrase|proof|\bgated?\b/i },
  { name: 'views per secret', value: VIEWS_RANGE.max, words: /\bviews?\b/i },
  { name: 'requests per key', value: RATE_LIMIT.requests, words: /minute/i },
  // \b: a setting named keysPerIpPerHour or KEYS_PER_IP_PER_HOUR is no statement of its default.
  { name: 'keys per address', value: KEY_CREATION_LIMIT.defaultPerIpPerHour, words: /\bhours?\b/i },
  { name: 'key lifetime', value: KEY_LIFETIME_MS / DAY_MS, unit: 'days?', words: /\bkeys?\b|lifetime/i },
  { name: 'expired key kept', value: EXPIRED_KEY_RETENTION_MS / DAY_MS, unit: 'days?', words: /expir/i },
  { name: 'receipt lifetime', value: RECEIPT_LIFETIME_MS / DAY_MS, unit: 'days?', words: /receipt/i },
  // "a 5 MiB body" is a payload of that size; "bodies over 5 MiB" and "the 5 MiB limit" are the limit.
  { name: 'body limit', value: MAX_BODY_BYTES / MIB, unit: 'MiB', words: /limit|413|\bover\b|above|up to|at most|within/i, near: 12 },
  { name: 'body limit in bytes', value: MAX_BODY_BYTES, words: /./ },
  { name: 'replay window', value: IDEMPOTENCY.replayWindowMs / 1000, unit: 's|seconds?', words: /repeat|replay|idempoten/i },
  { name: 'replay retention', value: REPLAY_RETENTION_MS / 1000, unit: 's|seconds?', words: /ciphertext|retention|kept/i },
  { name: 'idempotency record', value: IDEMPOTENCY.recordMs / 1000, unit: 's|seconds?', words: /forgot|idempoten|record/i },
  { name: 'bytes per key a day', value: STORED_BYTES_LIMIT.defaultMiBPerKeyPerDay / 1024, unit: 'GiB', words: /\bday\b|per key|a key/i },
  { name: 'bytes per address a day', value: STORED_BYTES_LIMIT.defaultMiBPerAddressPerDay / 1024, unit: 'GiB', words: /\bday\b|address/i },
  { name: 'request note', value: REQUEST_NOTE_MAX_LENGTH, words: /note/i },
  { name: 'error message', value: ERROR_MESSAGE_MAX_LENGTH, words: /error|message/i },
  { name: 'webhook URL', value: WEBHOOK_URL_MAX_LENGTH, words: /webhook|url/i },
  { name: 'requests per address at the web ACL', value: ADDRESS_RATE_LIMIT.defaultPerWindow, words: /address|minutes|web ACL/i },
];

/**
 * Pages that may restate a limit, each with the limits and why: the settings tables (npm run
 * docs:settings, generated from the registry, so they cannot drift) state siteUrl's own bound,
 * SITE_URL_MAX_LENGTH, the webhook URL's number, and passphraseAttempts' default.
 */
const GENERATED_SETTINGS_TABLE = { limits: ['webhook URL', 'passphrase attempts'] };
const RESTATING: Record<string, { limits: string[] }> = {
  'docs/deploy.md': GENERATED_SETTINGS_TABLE,
  'docs/local-mode.md': GENERATED_SETTINGS_TABLE,
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The number as the docs write it: 10000 or 10,000, with its unit if it has one. */
function numberPattern({ value, unit }: Rule): RegExp {
  const spellings = [String(value), value.toLocaleString('en-US')].map(escape).join('|');
  // Not part of a longer number (1..5, 15, 2.5, 5,000), nor a count of something else: "5 MiB"
  // is no count of views, "20 s" no count of keys. Ordinals count: "the 5th wrong proof".
  const after = unit ? `\\s?(?:${unit})\\b` : '(?:st|nd|rd|th)?(?![\\w,]|\\.\\d|\\s?(?:ms|s|KB|kB|MB|MiB|GiB|GB|%|×)\\b)';
  return new RegExp(`(?<![\\w.,])(?:${spellings})${after}`, 'g');
}

/**
 * Sentences, and table cells each with its row's first cell (the row's label: "| views | 1 to 5 |"
 * states the views, as the Limits table does). A statement never crosses their bounds.
 */
function segmentsOf(markdown: string): string[] {
  // A link's target is an address, not words: "(client.md#5-passphrase)" states nothing.
  const prose = markdown.replace(/\]\([^)\s]*\)/g, ']');
  const sentences = (text: string) => text.replace(/\s+/g, ' ').split(/(?<=[.!?;])\s/);
  return prose.split(/\n\s*\n/).flatMap((block) => {
    const lines = block.trim().split('\n');
    if (!lines.every((line) => line.trim().startsWith('|'))) return sentences(block);
    return lines.flatMap((line) => {
      const [label = '', ...cells] = line.trim().split('|').slice(1, -1);
      if (/^[\s:-]*$/.test(label)) return [];
      return [label, ...cells.map((cell) => `${label} ${cell}`)].flatMap(sentences);
    });
  });
}

/** Where in this text the rule's number stands within NEAR characters of its words. */
function statementsOf(rule: Rule, text: string): string[] {
  return segmentsOf(text).flatMap((segment) =>
    [...segment.matchAll(numberPattern(rule))].flatMap((number) => {
      const start = number.index;
      const end = start + number[0].length;
      const near = rule.near ?? NEAR;
      const around = segment.slice(Math.max(0, start - near), end + near);
      return rule.words.test(around.replace(number[0], ' ')) ? [around.trim()] : [];
    }),
  );
}

const markdown = execFileSync('git', ['ls-files', '-z', '--', 'README.md', 'docs/**.md'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file.endsWith('.md'));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The Limits section of the home page: from its heading to the next heading of its level. */
const limitsSection = /^## Limits\n([\s\S]*?)(?=^## )/m.exec(read(HOME))?.[1] ?? '';

test.each(RULES.map((rule) => [rule.name, rule] as const))("docs/api.md's Limits states the %s", (_, rule) => {
  expect(statementsOf(rule, limitsSection)).not.toEqual([]);
});

test('no other page restates a number of the contract: each links to api.md#limits', () => {
  const restated = markdown
    .filter((file) => file !== HOME)
    .flatMap((file) =>
      RULES.filter((rule) => !RESTATING[file]?.limits.includes(rule.name)).flatMap((rule) =>
        statementsOf(rule, read(file)).map((found) => `${file}: ${rule.name}: "${found}"`),
      ),
    );
  expect(restated).toEqual([]);
});

test('the check can fail, and tells a restatement from a number that is not one', () => {
  const [attempts, views, , keys, , , , body] = RULES as [Rule, Rule, Rule, Rule, Rule, Rule, Rule, Rule];
  expect(statementsOf(attempts, 'and 5 wrong passphrases destroy the secret')).toHaveLength(1);
  expect(statementsOf(attempts, 'after the 5th wrong proof')).toHaveLength(1);
  expect(statementsOf(views, '| `views` | a JSON integer 1 to 5 |')).toHaveLength(1);
  expect(statementsOf(keys, 'POST /keys allows 20 keys per client address per hour')).toHaveLength(1);
  expect(statementsOf(body, 'a body over 5 MiB gets 413')).toHaveLength(1);
  expect(statementsOf(attempts, 'a job that failed its 4 attempts shows 5 on the first listing')).toEqual([]);
  expect(statementsOf(attempts, 'ever learning it ([client](client.md#5-passphrase-envelope-version-2))')).toEqual([]);
  expect(statementsOf(attempts, 'a 5 MiB payload, measured over 5 runs. Passphrases are never logged.')).toEqual([]);
  expect(statementsOf(views, 'views | 15 chunks')).toEqual([]);
  expect(statementsOf(keys, '| `keysPerIpPerHour` | creations per address, at most 10,000 | 20 |')).toEqual([]);
  expect(statementsOf(body, 'a 5 MiB round trip in the bench')).toEqual([]);
});
