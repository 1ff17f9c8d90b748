import { OnetimeClient } from '../client';
import { mintKey, MINTED_KEY_NOTE } from '../cli/commands';
import type { Settings } from '../cli/settings';
import { RequestState } from './state';

/** What every tool of one server shares: the service, its API key, and the kept requests. */
export class Session {
  private minted: Promise<string> | undefined;

  constructor(
    private readonly settings: Settings,
    readonly requests: RequestState,
    private readonly warn: (line: string) => void,
  ) {}

  /** Whether the key is minted here rather than configured: then it must be kept with each request. */
  get mintsKey(): boolean {
    return this.settings.apiKey === undefined;
  }

  /** The configured key, or one minted at first need and kept for the server's life (secret_status needs it). */
  apiKey(): Promise<string> {
    if (this.settings.apiKey !== undefined) return Promise.resolve(this.settings.apiKey);
    this.minted ??= mintKey(new OnetimeClient({ baseUrl: this.settings.apiUrl }), this.settings.apiUrl).then(
      ({ key }) => {
        this.warn(`${MINTED_KEY_NOTE}; kept for this server's life`);
        return key;
      },
      (error: unknown) => {
        this.minted = undefined;
        throw error;
      },
    );
    return this.minted;
  }

  async client(apiKey?: string): Promise<OnetimeClient> {
    return new OnetimeClient({ baseUrl: this.settings.apiUrl, apiKey: apiKey ?? (await this.apiKey()) });
  }
}
