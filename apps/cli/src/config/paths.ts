import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$XDG_CONFIG_HOME/lfk`, or `~/.config/lfk` when XDG_CONFIG_HOME is unset or not absolute. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg?.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'lfk');
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'config.json');
}
