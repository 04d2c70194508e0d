import { usageError } from '../errors.ts';
import { type Config, readConfig, type ServerProfile } from './config-file.ts';
import { configPath } from './paths.ts';
import { serverKey } from './server-key.ts';
import { io } from '../terminal/io.ts';

/** Where `npm start` serves, as the server itself prints it. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

/** Where the API key came from, for messages that say how to stop using it. */
export function describeKeySource(source: Settings['apiKeySource']): string {
  return source === 'flag' ? '--api-key' : 'LFK_API_KEY';
}

/** How the base URL was chosen, for messages that name the server. */
export function describeSource(source: Settings['baseUrlSource']): string {
  return { flag: '--base-url', env: 'LFK_BASE_URL', config: 'the server you last signed in to', default: 'the default' }[source];
}
const DEFAULT_TIMEOUT_SECONDS = 30;

/** The global flags every command takes (commander's `optsWithGlobals()`). */
export interface GlobalFlags {
  baseUrl?: string;
  workspace?: string;
  apiKey?: string;
  json?: boolean;
  /** False with `--no-headers`. */
  headers?: boolean;
  timeout?: string;
}

type Source = 'flag' | 'env' | 'config' | 'default';

/** Everything a command needs to know before it talks to the server: flags over env over config. */
export interface Settings {
  baseUrl: string;
  baseUrlSource: Source;
  /**
   * `--api-key`, else `LFK_API_KEY`; never read from or written to the config file. When given,
   * the CLI acts as the key alone: what a key can do uses it, and what needs a person is refused,
   * even with a session saved (see requireSession).
   */
  apiKey: string | undefined;
  apiKeySource: 'flag' | 'env' | undefined;
  /** `--workspace` or `LFK_WORKSPACE`; the config's default and the only-workspace rule come later. */
  workspace: { id: string; source: 'flag' | 'env' } | undefined;
  json: boolean;
  /** Whether a table through a pipe starts with its column names. */
  headers: boolean;
  /** How long a command's talk with the server may take, every request and retry of it together. */
  timeoutMs: number;
  configPath: string;
  config: Config;
  /** This server's key in the config file (see serverKey). */
  serverKey: string;
  /** What the config holds for this server: its session and default workspace. */
  profile: ServerProfile;
}

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** An http(s) address with no credentials, query or fragment, without its trailing slash. */
export function normalizeBaseUrl(value: string, from: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError('invalid_base_url', `${from} is not a URL: ${JSON.stringify(value)}.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
    throw usageError('invalid_base_url', `${from} must be an http or https address with no credentials, query or fragment.`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function parseTimeout(value: string, from: string): number {
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(seconds > 0 && seconds <= 3600)) throw usageError('invalid_timeout', `${from} must be a number of seconds between 0 and 3600.`);
  return Math.round(seconds * 1000);
}

export async function loadSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv = io().env): Promise<Settings> {
  const path = configPath(env);
  const config = await readConfig(path);

  let baseUrl: string;
  let baseUrlSource: Source;
  if (flags.baseUrl !== undefined) [baseUrl, baseUrlSource] = [normalizeBaseUrl(flags.baseUrl, '--base-url'), 'flag'];
  else if (nonEmpty(env.LFK_BASE_URL)) [baseUrl, baseUrlSource] = [normalizeBaseUrl(env.LFK_BASE_URL as string, 'LFK_BASE_URL'), 'env'];
  else if (config.base_url) [baseUrl, baseUrlSource] = [normalizeBaseUrl(config.base_url, 'base_url in the config file'), 'config'];
  else [baseUrl, baseUrlSource] = [DEFAULT_BASE_URL, 'default'];

  const flagKey = flags.apiKey === undefined ? undefined : nonEmpty(flags.apiKey);
  if (flags.apiKey !== undefined && !flagKey) throw usageError('invalid_api_key_flag', '--api-key is empty.');
  const apiKey = flagKey ?? nonEmpty(env.LFK_API_KEY);
  const apiKeySource = flagKey ? 'flag' : apiKey ? 'env' : undefined;

  let workspace: Settings['workspace'];
  if (flags.workspace !== undefined) {
    const id = nonEmpty(flags.workspace);
    if (!id) throw usageError('invalid_workspace_flag', '--workspace is empty.');
    workspace = { id, source: 'flag' };
  } else if (nonEmpty(env.LFK_WORKSPACE)) {
    workspace = { id: nonEmpty(env.LFK_WORKSPACE) as string, source: 'env' };
  }

  let timeoutMs = DEFAULT_TIMEOUT_SECONDS * 1000;
  if (flags.timeout !== undefined) timeoutMs = parseTimeout(flags.timeout, '--timeout');
  else if (nonEmpty(env.LFK_TIMEOUT)) timeoutMs = parseTimeout(nonEmpty(env.LFK_TIMEOUT) as string, 'LFK_TIMEOUT');

  return {
    baseUrl,
    baseUrlSource,
    apiKey,
    apiKeySource,
    workspace,
    json: flags.json === true,
    headers: flags.headers !== false,
    timeoutMs,
    configPath: path,
    config,
    serverKey: serverKey(baseUrl),
    profile: config.servers[serverKey(baseUrl)] ?? {},
  };
}
