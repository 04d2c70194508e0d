/** Names this machine answers to: with the same scheme and port, they all reach one server. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The config file's key for a server: its normalised base URL, with every loopback name read as
 * 127.0.0.1, so signing in at http://localhost:3000 also signs in http://127.0.0.1:3000.
 */
export function serverKey(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (LOOPBACK.test(url.hostname)) url.hostname = '127.0.0.1';
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
