import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { secretId } from '../../../contract/schemas';
import { InputError } from '../errors';

/** Each open request's receive link and minted key, so that a restarted server can still receive; files 0600. */

export const STATE_DIR_ENV = 'ONETIME_STATE_DIR';

/** $ONETIME_STATE_DIR, else $XDG_STATE_HOME/onetime (default ~/.local/state/onetime). */
export function stateDir(env: NodeJS.ProcessEnv): string {
  return env[STATE_DIR_ENV] || join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'onetime');
}

export interface KeptRequest {
  receiveLink: string;
  /** The key minted for this server, when it had none configured: only it may read the answer. */
  apiKey?: string;
}

export class RequestState {
  constructor(private readonly dir: string) {}

  /** Made before a request is: a request whose receive link cannot be kept is not worth making. */
  async ready(): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new InputError(`cannot make the state folder ${this.dir}: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}`);
    }
  }

  async keep(id: string, request: KeptRequest): Promise<void> {
    try {
      await writeFile(this.fileOf(id), JSON.stringify(request), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      throw new InputError(`cannot keep request ${id} in ${this.dir}: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}`);
    }
  }

  async recall(id: string): Promise<KeptRequest> {
    try {
      return JSON.parse(await readFile(this.fileOf(id), 'utf8')) as KeptRequest;
    } catch {
      throw new InputError(`no open request ${id} was made through this server (or its answer was already received)`);
    }
  }

  async forget(id: string): Promise<void> {
    await rm(this.fileOf(id), { force: true });
  }

  /** An id is a file name here: only a well-formed one, never a path. */
  private fileOf(id: string): string {
    if (!secretId.safeParse(id).success) throw new InputError('request_id is not a request id');
    return join(this.dir, `request-${id}.json`);
  }
}
