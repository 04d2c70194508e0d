import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CliError } from '../errors.ts';
import { serverKey } from './server-key.ts';

/** What `lfk login` remembers about one server. Sessions are kept per server, never sent to another. */
export interface ServerProfile {
  session_token?: string;
  user_email?: string;
  /** The default workspace, chosen with `lfk workspaces use` (or by `lfk signup`). */
  workspace_id?: string;
}

export interface Config {
  /** The server used when neither --base-url nor LFK_BASE_URL says otherwise; set by login and signup. */
  base_url?: string;
  servers: Record<string, ServerProfile>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export async function readConfig(path: string): Promise<Config> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { servers: {} };
    throw new CliError('config_unreadable', `Cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError('config_invalid', `${path} is not valid JSON.`, { hint: 'Fix it, or delete it and sign in again.' });
  }
  if (!isRecord(parsed)) throw new CliError('config_invalid', `${path} does not hold a JSON object.`);
  const servers: Record<string, ServerProfile> = {};
  if (isRecord(parsed.servers)) {
    for (const [url, raw] of Object.entries(parsed.servers)) {
      if (!isRecord(raw)) continue;
      const profile: ServerProfile = {};
      const token = optionalString(raw.session_token);
      const email = optionalString(raw.user_email);
      const workspace = optionalString(raw.workspace_id);
      if (token) profile.session_token = token;
      if (email) profile.user_email = email;
      if (workspace) profile.workspace_id = workspace;
      // Files written before servers were keyed by serverKey() may name one server twice: a
      // profile holding a session wins over one without.
      let key: string;
      try {
        key = serverKey(url);
      } catch {
        continue;
      }
      if (!servers[key]?.session_token) servers[key] = profile;
    }
  }
  const baseUrl = optionalString(parsed.base_url);
  return baseUrl ? { base_url: baseUrl, servers } : { servers };
}

/**
 * Writes the whole file atomically: a private temporary file beside it, flushed, then renamed over
 * it. A crash leaves the old file or the new one, never half of one; the mode is 0600 from the start.
 */
export async function writeConfig(path: string, config: Config): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(config, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Read, change, write back. */
export async function updateConfig(path: string, change: (config: Config) => void): Promise<Config> {
  const config = await readConfig(path);
  change(config);
  await writeConfig(path, config);
  return config;
}
