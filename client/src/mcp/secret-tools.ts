import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { SECRET_TTL_NAMES, VIEWS_RANGE } from '../../../contract/limits';
import { secretStatusResponse } from '../../../contract/schemas';
import { InputError } from '../errors';
import { parseLink } from '../link';
import { utf8 } from '../utf8';
import { readFileContent } from '../cli/input';
import { readPassphraseFile } from '../cli/passphrase';
import { newFilePath, writeNewFile } from './files';
import type { Session } from './session';
import { registerTool, type Tool } from './tool';

/** share_secret, reveal_secret and secret_status: secrets as the CLI's share, reveal and status make them. */

const passphraseFile = z.string().min(1).optional().describe('A file holding the passphrase (one line); never the passphrase itself.');
const toFile = z.string().min(1).describe('Path of a new file to write the secret into (created 0600); it must not exist yet.');

const shareInput = {
  from_file: z.string().min(1).optional().describe('Path of a file to share; its name and media type go along, encrypted.'),
  from_env: z.string().min(1).optional().describe("Name of an environment variable of this server's process whose value to share."),
  text: z.string().min(1).optional().describe('Text to share, when it is already in the conversation (say, generated); prefer from_file.'),
  ttl: z.enum(SECRET_TTL_NAMES).optional().describe('How long the link works (default 1d).'),
  views: z.int().min(VIEWS_RANGE.min).max(VIEWS_RANGE.max).optional().describe('How many times it may be revealed (default 1).'),
  passphrase_file: passphraseFile.describe('A file holding a passphrase the reader will need too (one line).'),
};

async function contentToShare({ from_file, from_env, text }: { from_file?: string; from_env?: string; text?: string }) {
  if ([from_file, from_env, text].filter((given) => given !== undefined).length !== 1) {
    throw new InputError('give exactly one of from_file, from_env and text');
  }
  if (from_file !== undefined) return readFileContent(from_file);
  if (from_env === undefined) return text ?? '';
  const value = process.env[from_env];
  if (!value) throw new InputError(`the environment variable ${from_env} is not set, or empty, in the server's process`);
  return value;
}

const shareSecret: Tool<typeof shareInput> = {
  name: 'share_secret',
  description:
    'Encrypts a file, an environment variable or a text on this machine and stores it for one-time reading; answers the link to ' +
    'send. The content never comes back to you.',
  input: shareInput,
  output: { link: z.string(), id: z.string(), expires: z.string().describe('ISO 8601') },
  async run(args, session) {
    const passphrase = args.passphrase_file === undefined ? undefined : await readPassphraseFile(args.passphrase_file);
    const content = await contentToShare(args);
    const client = await session.client();
    const shared = await client.share(content, { ttl: args.ttl, views: args.views, ...(passphrase === undefined ? {} : { passphrase }) });
    return { link: shared.link, id: shared.id, expires: new Date(shared.expires).toISOString() };
  },
};

const revealInput = { link: z.string().min(1).describe('The link of the secret.'), to_file: toFile, passphrase_file: passphraseFile };

const revealSecret: Tool<typeof revealInput> = {
  name: 'reveal_secret',
  description:
    'Claims one view of a secret link and writes its content into a new file (0600); answers its type, size and the views left. ' +
    'The content never comes back to you.',
  input: revealInput,
  output: {
    type: z.enum(['text', 'file']),
    bytes: z.int().nonnegative(),
    remaining: z.int().nonnegative().describe('Views left after this one.'),
    file: z.string().describe('The absolute path written.'),
    filename: z.string().optional().describe("The sender's name for the file."),
  },
  async run(args, session) {
    // Everything that can be refused is, before the view is claimed.
    const { gated } = parseLink(args.link);
    const file = await newFilePath(args.to_file);
    if (gated && args.passphrase_file === undefined) throw new InputError('this link needs a passphrase: give passphrase_file');
    const passphrase = gated && args.passphrase_file !== undefined ? await readPassphraseFile(args.passphrase_file) : undefined;
    const revealed = await (await session.client()).reveal(args.link, passphrase === undefined ? {} : { passphrase });
    const bytes = revealed.type === 'text' ? utf8.encode(revealed.text) : revealed.bytes;
    await writeNewFile(file, bytes);
    const filename = revealed.type === 'file' ? revealed.name : undefined;
    return { type: revealed.type, bytes: bytes.length, remaining: revealed.remaining, file, ...(filename === undefined ? {} : { filename }) };
  },
};

const statusInput = {
  link: z.string().min(1).optional().describe('The link share_secret answered.'),
  id: z.string().min(1).optional().describe('Or the id it answered.'),
};

const secretStatus: Tool<typeof statusInput> = {
  name: 'secret_status',
  description:
    "What became of a secret this server's key shared: active, used, revoked, expired or burned, and when each view was taken " +
    '(times in ms since the epoch). Uses no view and never shows the content.',
  input: statusInput,
  output: secretStatusResponse.shape,
  async run({ link, id }, session) {
    const linkOrId = link ?? id;
    if (linkOrId === undefined || (link !== undefined && id !== undefined)) throw new InputError('give exactly one of link and id');
    return (await session.client()).status(linkOrId);
  },
};

export function registerSecretTools(server: McpServer, session: Session): void {
  registerTool(server, session, shareSecret);
  registerTool(server, session, revealSecret);
  registerTool(server, session, secretStatus);
}
