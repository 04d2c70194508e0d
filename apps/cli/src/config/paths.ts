import { homedir } from 'node:os';
import { join } from 'node:path';
import { io } from '../terminal/io.ts';

/** `$XDG_CONFIG_HOME/lfk/config.json`, or `~/.config/lfk/config.json` when XDG_CONFIG_HOME is unset or not absolute. */
export function configPath(env: NodeJS.ProcessEnv = io().env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg?.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'lfk', 'config.json');
}
