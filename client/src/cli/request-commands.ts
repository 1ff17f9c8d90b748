import { SecretGoneError } from '../errors';
import { MINTED_KEY_NOTE, clientFor, emitRevealed, print, ttlOf, type Command } from './commands';
import { readFileContent, readStdinText } from './input';
import { resolveTarget } from './output';

/** The commands of secret requests (docs/client.md, "Secret requests"). */

const request: Command = {
  options: ['ttl', 'note', 'json'],
  positionals: { min: 0, max: 0, names: '' },
  async run(invocation) {
    const { values, io } = invocation;
    const client = clientFor(invocation);
    const ttl = ttlOf(values.ttl);
    const requested = await client.request({ ...(ttl ? { ttl } : {}), ...(values.note !== undefined ? { note: values.note } : {}) });
    if (client.mintedApiKey) io.stderr.write(`${MINTED_KEY_NOTE}; the link to keep carries it\n`);
    if (values.json) {
      print(io, JSON.stringify(requested));
      return;
    }
    print(io, 'Send this link to whoever should answer (it lets them send you one secret; the note is public to them):');
    print(io, `  ${requested.requestLink}`);
    print(io, 'Keep this link to yourself: only it can read the answer (onetime receive LINK):');
    print(io, `  ${requested.receiveLink}`);
  },
};

const receive: Command = {
  options: ['output', 'force'],
  positionals: { min: 1, max: 1, names: 'LINK' },
  async run(invocation) {
    const { values, positionals, io } = invocation;
    const force = values.force ?? false;
    const target = await resolveTarget(values.output, force);
    const received = await clientFor(invocation).receive(positionals[0] ?? '');
    if (received.state !== 'fulfilled') {
      if (received.state === 'expired') throw new SecretGoneError('expired: the request, or its unread answer, ran out of time');
      io.stderr.write(`open: not answered yet; the request expires at ${new Date(received.expires).toISOString()}\n`);
      return;
    }
    const { content } = received;
    await emitRevealed(io, content, { target, output: values.output, force });
  },
};

const fulfil: Command = {
  options: [],
  positionals: { min: 1, max: 2, names: 'LINK [FILE]' },
  async run(invocation) {
    const { positionals, io } = invocation;
    const [link = '', file] = positionals;
    const client = clientFor(invocation);
    // Checked (fingerprint included) before the content is read: a wrong link costs no typing.
    const opened = await client.openRequest(link);
    if (opened.note !== undefined) io.stderr.write(`note from the requester (public): ${opened.note}\n`);
    const content = file === undefined ? await readStdinText(io.stdin, io.stderr) : await readFileContent(file);
    await client.fulfil(link, content);
    print(io, 'sent: only the requester can read it, once');
  },
};

export const REQUEST_COMMANDS: Readonly<Record<string, Command>> = { request, receive, fulfil };
