import { existsSync } from 'node:fs';

/** Where Debian, Ubuntu and Chrome's own packages put the browser. */
const KNOWN_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** The Chromium the browser tests drive: `LFK_CHROMIUM` if set, else the first one installed. */
export function findChromium(env: Record<string, string | undefined>): string | null {
  if (env.LFK_CHROMIUM) return existsSync(env.LFK_CHROMIUM) ? env.LFK_CHROMIUM : null;
  return KNOWN_PATHS.find((path) => existsSync(path)) ?? null;
}

export const INSTALL_HINT = "install Debian's chromium (sudo apt-get install -y chromium) or point LFK_CHROMIUM at a Chromium or Chrome binary";
