import { spawn } from 'node:child_process';
import { io } from './io.ts';

/**
 * Opens `url` in the person's browser: `$BROWSER` when set (as gh and git do), else the system's
 * opener. Fire and forget: whether it worked, the URL is printed too. False when nothing was tried.
 */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = io().env): boolean {
  const [command, ...args] = env.BROWSER
    ? [env.BROWSER, url]
    : process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url]
        : ['xdg-open', url];
  try {
    const child = spawn(command!, args, { stdio: 'ignore', detached: true, env });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
