import Bowser from 'bowser';

/** The longest description answered: a User-Agent lfk cannot read is shown cut to this. */
const SHOWN_MAX = 80;

/**
 * A `User-Agent` in words, for a person deciding whether a session is theirs: "Chrome 131 on
 * macOS", "Safari 17.5 on iOS"; a program by its product token ("curl 8.5.0"); anything else as
 * sent, cut short. Read by bowser, which knows browsers' strings; null for none.
 */
export function describeUserAgent(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const parsed = Bowser.parse(userAgent);
  // What bowser knows the engine or system of is a browser; for anything else it only guesses a name.
  if (parsed.browser.name && (parsed.engine.name || parsed.os.name)) {
    const browser = [parsed.browser.name, majorOf(parsed.browser.version)].filter(Boolean).join(' ');
    return parsed.os.name ? `${browser} on ${parsed.os.name}` : browser;
  }
  const product = /^([A-Za-z][\w.-]*)\/(\S+)/.exec(userAgent);
  if (product) return `${product[1]} ${product[2]}`;
  if (parsed.browser.name) return parsed.browser.name;
  return userAgent.length <= SHOWN_MAX ? userAgent : `${userAgent.slice(0, SHOWN_MAX - 1)}…`;
}

/** `131.0.0.0` → `131`; `17.5` stays, a browser numbered by its minor version too. */
function majorOf(version: string | undefined): string {
  if (!version) return '';
  const [major, minor] = version.split('.');
  return minor && minor !== '0' && Number(major) < 30 ? `${major}.${minor}` : (major ?? '');
}
