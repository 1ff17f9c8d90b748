import { SECRET_TTLS, type SecretTtl } from '../../../contract/limits';
import { ERRORS } from '../../../contract/errors';
import type { CreateKeyResponse } from '../../../contract/schemas';
import { OnetimeClient, type SecretStatus } from '../client';
import { InputError } from '../errors';
import { safeName } from '../filename';
import { utf8 } from '../utf8';
import { verifyWebhook, WEBHOOK_TOLERANCE_MS } from '../webhook';
import type { OptionName, Values } from './arguments';
import { readAll, readFileContent, readStdinText } from './input';
import { passphraseToReveal, passphraseToShare } from './passphrase';
import { parseLink } from '../link';
import { resolveTarget, writeRevealed, type Target } from './output';
import { fetchWithProgress } from './progress';
import { requireApiKey, type Settings } from './settings';
import { logIn, logOut, storedSignIn } from './sign-in';

/** The commands of docs/client.md §3, each with the options and positionals it takes. */

export interface Io {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export interface Invocation {
  values: Values;
  positionals: string[];
  settings: Settings;
  io: Io;
}

export interface Command {
  options: readonly OptionName[];
  positionals: { min: number; max: number; names: string };
  run(invocation: Invocation): Promise<void>;
}

/** No number: each deployment sets its own per-address limit, and says so itself when it is reached (429). */
export const MINTED_KEY_NOTE = 'note: no API key set (ONETIME_API_KEY); used a one-off key from POST /keys, which the service limits per address';

export function clientFor({ settings, io }: Invocation, apiKey = settings.apiKey): OnetimeClient {
  return new OnetimeClient({ baseUrl: settings.apiUrl, ...(apiKey ? { apiKey } : {}), fetch: fetchWithProgress(io.stderr) });
}

const isSecretTtl = (value: string): value is SecretTtl => Object.hasOwn(SECRET_TTLS, value);

export function ttlOf(value: string | undefined): SecretTtl | undefined {
  if (value === undefined) return undefined;
  if (!isSecretTtl(value)) throw new InputError(ERRORS.ttl);
  return value;
}

/** The library checks the number against the service's schema; "2.5" and "two" are refused there, by its message. */
const viewsOf = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value === '' ? NaN : value));

export const print = (io: Io, line: string): void => {
  io.stdout.write(`${line}\n`);
};

/** What a reveal or a receive decrypted: text, or a file's bytes and the sender's name for it. */
type RevealedContent = { type: 'text'; text: string } | { type: 'file'; name: string | undefined; mimetype: string; bytes: Uint8Array };

/** Where revealed content goes: the target resolved from -o (`output`) before the claim, and --force. */
interface Destination {
  target: Target;
  output: string | undefined;
  force: boolean;
}

/** Text goes to stdout unless -o names a place; a file, or text with -o, is written into the target and its path printed. */
export async function emitRevealed(io: Io, content: RevealedContent, { target, output, force }: Destination): Promise<void> {
  if (content.type === 'text' && output === undefined) {
    io.stdout.write(content.text);
    return;
  }
  const bytes = content.type === 'text' ? utf8.encode(content.text) : content.bytes;
  const name = content.type === 'text' ? 'secret.txt' : safeName(content.name, content.mimetype);
  print(io, await writeRevealed(target, name, bytes, force));
}

const share: Command = {
  options: ['ttl', 'views', 'json', 'passphrase-file', 'ask-passphrase'],
  positionals: { min: 0, max: 1, names: '[FILE]' },
  async run(invocation) {
    const { values, positionals, io } = invocation;
    const [file] = positionals;
    const gated = values['ask-passphrase'] === true || values['passphrase-file'] !== undefined;
    // Asked for before the content: standard input may be carrying it, the terminal is not.
    const passphrase = gated ? await passphraseToShare(values['passphrase-file']) : undefined;
    const options = { ttl: ttlOf(values.ttl), views: viewsOf(values.views), ...(passphrase === undefined ? {} : { passphrase }) };
    const content = file === undefined ? await readStdinText(io.stdin, io.stderr) : await readFileContent(file);
    const client = clientFor(invocation);
    const shared = await client.share(content, options);
    if (client.mintedApiKey) io.stderr.write(`${MINTED_KEY_NOTE}; this secret cannot be revoked\n`);
    print(io, values.json ? JSON.stringify(shared) : shared.link);
  },
};

const reveal: Command = {
  options: ['output', 'force', 'passphrase-file'],
  positionals: { min: 1, max: 1, names: 'LINK' },
  async run(invocation) {
    const { values, positionals, io } = invocation;
    const link = positionals[0] ?? '';
    const force = values.force ?? false;
    const target = await resolveTarget(values.output, force);
    // A gated link's passphrase is asked for before any request: a wrong or missing one then uses nothing.
    const passphrase = parseLink(link).gated ? await passphraseToReveal(values['passphrase-file']) : undefined;
    const client = clientFor(invocation);
    const revealed = await client.reveal(link, passphrase === undefined ? {} : { passphrase });
    if (client.mintedApiKey) io.stderr.write(`${MINTED_KEY_NOTE}\n`);
    await emitRevealed(io, revealed, { target, output: values.output, force });
  },
};

const revoke: Command = {
  options: [],
  positionals: { min: 1, max: 1, names: 'LINK|ID' },
  async run(invocation) {
    await clientFor(invocation, requireApiKey(invocation.settings)).revoke(invocation.positionals[0] ?? '');
    print(invocation.io, 'revoked');
  },
};

/** `state views-left/views`, then each view's time: what a person asks after sharing a link. */
function describeStatus(status: SecretStatus): string {
  const lines = [
    `${status.state}: ${status.remaining} of ${status.views} view${status.views === 1 ? '' : 's'} left`,
    `created ${new Date(status.created).toISOString()}`,
    `expires ${new Date(status.expires).toISOString()}`,
    ...status.viewed.map((at) => `viewed  ${new Date(at).toISOString()}`),
  ];
  return lines.join('\n');
}

const status: Command = {
  options: ['json'],
  positionals: { min: 1, max: 1, names: 'LINK|ID' },
  async run(invocation) {
    const { values, positionals, io } = invocation;
    const receipt = await clientFor(invocation, requireApiKey(invocation.settings)).status(positionals[0] ?? '');
    print(io, values.json ? JSON.stringify(receipt) : describeStatus(receipt));
  },
};

/** A new key; signed in (onetime login) to this service, one that may create. */
export async function mintKey(client: OnetimeClient, apiUrl: string, webhook?: string): Promise<CreateKeyResponse> {
  const signIn = await storedSignIn(apiUrl);
  return client.createKey({ ...(webhook === undefined ? {} : { webhook }), ...(signIn ? { signInToken: signIn.idToken } : {}) });
}

const keyCreate: Command = {
  options: ['webhook'],
  positionals: { min: 0, max: 0, names: '' },
  async run(invocation) {
    const { values, io, settings } = invocation;
    const created = await mintKey(clientFor(invocation), settings.apiUrl, values.webhook);
    print(io, created.key);
    io.stderr.write(`webhook secret: ${created.webhookSecret}\n`);
  },
};

const login: Command = {
  options: ['browser'],
  positionals: { min: 0, max: 0, names: '' },
  async run({ settings, io, values }) {
    const signedIn = await logIn(settings.apiUrl, (line) => io.stderr.write(`${line}\n`), { browser: values.browser === true });
    print(io, `signed in until ${new Date(signedIn.expires).toISOString()}; onetime key create now mints a key that creates`);
  },
};

const logout: Command = {
  options: [],
  positionals: { min: 0, max: 0, names: '' },
  async run({ io }) {
    print(io, (await logOut()) ? 'signed out' : 'not signed in');
  },
};

const keyShow: Command = {
  options: [],
  positionals: { min: 0, max: 0, names: '' },
  async run(invocation) {
    print(invocation.io, JSON.stringify(await clientFor(invocation, requireApiKey(invocation.settings)).showKey(), null, 2));
  },
};

const keyWebhook: Command = {
  options: [],
  positionals: { min: 1, max: 1, names: 'URL|""' },
  async run(invocation) {
    await clientFor(invocation, requireApiKey(invocation.settings)).updateWebhook(invocation.positionals[0] ?? '');
    print(invocation.io, 'updated');
  },
};

const keyRevoke: Command = {
  options: [],
  positionals: { min: 0, max: 0, names: '' },
  async run(invocation) {
    await clientFor(invocation, requireApiKey(invocation.settings)).revokeKey();
    print(invocation.io, 'revoked');
  },
};

const webhookTest: Command = {
  options: [],
  positionals: { min: 0, max: 0, names: '' },
  async run(invocation) {
    print(invocation.io, `queued ${await clientFor(invocation, requireApiKey(invocation.settings)).testWebhook()}`);
  },
};

const webhookVerify: Command = {
  options: ['secret', 'signature'],
  positionals: { min: 0, max: 0, names: '' },
  async run({ values, io }) {
    if (values.secret === undefined || values.signature === undefined) {
      throw new InputError('webhook verify needs --secret WHSEC and --signature HEADER, and the body on standard input');
    }
    const body = await readAll(io.stdin);
    if (!(await verifyWebhook(body, values.signature, values.secret, { toleranceMs: WEBHOOK_TOLERANCE_MS }))) {
      throw new InputError(`invalid signature, or signed more than ${WEBHOOK_TOLERANCE_MS} ms ago`);
    }
    print(io, 'valid');
  },
};

/** Keyed by the words that name them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  share,
  reveal,
  revoke,
  status,
  login,
  logout,
  'key create': keyCreate,
  'key show': keyShow,
  'key webhook': keyWebhook,
  'key revoke': keyRevoke,
  'webhook test': webhookTest,
  'webhook verify': webhookVerify,
};
