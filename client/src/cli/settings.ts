import { InputError } from '../errors';

export const ENV = { apiUrl: 'ONETIME_API_URL', apiKey: 'ONETIME_API_KEY' } as const;
export const DEFAULT_API_URL = 'http://localhost:3000/api/v1';

export interface Settings {
  apiUrl: string;
  apiKey: string | undefined;
}

/** Flags override the environment; an empty variable counts as unset. */
export function readSettings(flags: { 'api-url'?: string; 'api-key'?: string }, env: NodeJS.ProcessEnv): Settings {
  const apiUrl = flags['api-url'] || env[ENV.apiUrl] || DEFAULT_API_URL;
  if (!URL.canParse(apiUrl) || !/^https?:$/.test(new URL(apiUrl).protocol)) {
    throw new InputError(`the API URL must be an http(s) URL ending in /api/v1 (${ENV.apiUrl} or --api-url)`);
  }
  return { apiUrl, apiKey: flags['api-key'] || env[ENV.apiKey] || undefined };
}

export function requireApiKey(settings: Settings): string {
  if (settings.apiKey === undefined) throw new InputError(`no API key: set ${ENV.apiKey} or pass --api-key`);
  return settings.apiKey;
}
