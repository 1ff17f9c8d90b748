import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { SECRET_TTL_NAMES } from '../../../contract/limits';
import { REQUEST_NOTE_MAX_LENGTH } from '../../../contract/requests';
import { SecretGoneError } from '../errors';
import { utf8 } from '../utf8';
import { newFilePath, writeNewFile } from './files';
import type { Session } from './session';
import { registerTool, type Tool } from './tool';

/** request_secret and receive_secret: a secret asked of a person, its receive link kept by the server. */

/** How often receive_secret looks while it waits: a person takes seconds to answer, and each look is a request. */
const POLL_INTERVAL_MS = 2000;
export const MAX_WAIT_SECONDS = 300;

/** A request past its retention is gone from the service: expired, as far as its requester can tell. */
function expiredWhenGone(error: unknown): 'expired' {
  if (error instanceof SecretGoneError) return 'expired';
  throw error;
}

const requestInput = {
  note: z.string().max(REQUEST_NOTE_MAX_LENGTH).optional().describe('Shown to whoever opens the request link: public, never secret.'),
  ttl: z.enum(SECRET_TTL_NAMES).optional().describe('How long the request stays open (default 1d).'),
};

const requestSecret: Tool<typeof requestInput> = {
  name: 'request_secret',
  description:
    'Asks a person for a secret: answers a request link to send them, where they type or drop it, encrypted to this server. ' +
    'Collect it with receive_secret, which writes it to a file; the content never comes back to you.',
  input: requestInput,
  output: { request_link: z.string(), request_id: z.string(), expires: z.string().describe('ISO 8601') },
  async run({ note, ttl }, session) {
    await session.requests.ready();
    const requested = await (await session.client()).request({ ...(ttl ? { ttl } : {}), ...(note !== undefined ? { note } : {}) });
    const apiKey = session.mintsKey ? await session.apiKey() : undefined;
    await session.requests.keep(requested.id, { receiveLink: requested.receiveLink, ...(apiKey === undefined ? {} : { apiKey }) });
    return { request_link: requested.requestLink, request_id: requested.id, expires: new Date(requested.expires).toISOString() };
  },
};

const receiveInput = {
  request_id: z.string().min(1).describe('The id request_secret answered.'),
  to_file: z.string().min(1).describe('Path of a new file to write the answer into (created 0600); it must not exist yet.'),
  wait_seconds: z.int().min(0).max(MAX_WAIT_SECONDS).optional().describe('How long to wait for the answer (default 0: just look).'),
};

const receiveSecret: Tool<typeof receiveInput> = {
  name: 'receive_secret',
  description:
    'Looks for the answer to a request_secret, waiting up to wait_seconds; once answered, reads it (once) into a new file (0600). ' +
    'Answers the state, and the size and path written; the content never comes back to you.',
  input: receiveInput,
  output: { state: z.enum(['pending', 'fulfilled', 'expired']), bytes: z.int().nonnegative().optional(), file: z.string().optional() },
  async run({ request_id: id, to_file, wait_seconds = 0 }, session, signal) {
    const kept = await session.requests.recall(id);
    const file = await newFilePath(to_file);
    const client = await session.client(kept.apiKey);
    const deadline = Date.now() + wait_seconds * 1000;
    const stateNow = () => client.requestStatus(kept.receiveLink).then(({ state }) => state, expiredWhenGone);
    let state = await stateNow();
    while (state === 'open' && Date.now() < deadline) {
      await sleep(Math.min(POLL_INTERVAL_MS, deadline - Date.now()), undefined, { signal });
      state = await stateNow();
    }
    if (state === 'open') return { state: 'pending' };
    // Checked again after the wait, just before the one read of the answer.
    if (state === 'fulfilled') await newFilePath(file);
    const received = state === 'fulfilled' ? await client.receive(kept.receiveLink) : undefined;
    if (received?.state !== 'fulfilled') {
      await session.requests.forget(id);
      return { state: 'expired' };
    }
    const { content } = received;
    const bytes = content.type === 'text' ? utf8.encode(content.text) : content.bytes;
    await writeNewFile(file, bytes);
    await session.requests.forget(id);
    return { state: 'fulfilled', bytes: bytes.length, file };
  },
};

export function registerRequestTools(server: McpServer, session: Session): void {
  registerTool(server, session, requestSecret);
  registerTool(server, session, receiveSecret);
}
