import { fileTypeFromBuffer } from 'file-type';

/** How many leading bytes sniffing reads: what `file-type` needs for every format it knows. */
export const SNIFF_BYTES = 4100;

const TEXT_DECODER = new TextDecoder('utf-8', { fatal: true });
const HTML_MARKERS = /<(!doctype\s+html|html|head|body|script|iframe|object|embed|meta|link|style|a\s|img\s|form|svg)\b/i;

/** Whether `head` reads as UTF-8 text (a cut last character allowed) with no NUL. */
function isText(head: Buffer, whole: boolean): boolean {
  if (head.includes(0)) return false;
  try {
    TEXT_DECODER.decode(head);
    return true;
  } catch {
    // The sniffed window may end inside a character: drop up to 3 trailing bytes and look again.
    if (whole) return false;
    for (let cut = 1; cut <= 3; cut++) {
      try {
        TEXT_DECODER.decode(head.subarray(0, head.length - cut));
        return true;
      } catch {}
    }
    return false;
  }
}

/** Text types a plain-text file may be stored as when it was sent as one and the field accepts it. */
const PLAIN_TEXT_KINDS = new Set(['text/plain', 'text/csv', 'text/tab-separated-values', 'text/markdown', 'application/json']);

/**
 * The type a file's bytes show: what `file-type` recognises by signature; else, for text, markup
 * is `image/svg+xml` or `text/html` (what a browser would take it for) and anything else
 * `text/plain` (or the plain-text kind it was sent as, such as `text/csv`); else
 * `application/octet-stream`. The name and the sent type never make a file what its bytes are not.
 */
export async function sniffContentType(head: Buffer, whole: boolean, declared: string): Promise<string> {
  const found = await fileTypeFromBuffer(head);
  if (found) {
    if (found.mime === 'application/xml') return /<svg[\s>]/i.test(head.toString('utf8')) ? 'image/svg+xml' : 'application/xml';
    return found.mime;
  }
  if (head.length > 0 && isText(head, whole)) {
    const text = head.toString('utf8');
    if (/<svg[\s>]/i.test(text)) return 'image/svg+xml';
    if (HTML_MARKERS.test(text)) return 'text/html';
    const sent = declared.split(';')[0]!.trim().toLowerCase();
    return PLAIN_TEXT_KINDS.has(sent) ? sent : 'text/plain';
  }
  return 'application/octet-stream';
}

/** Whether a field's `accept` list (exact types and `type/*`; none means any) takes `type`. */
export function accepts(accept: readonly string[] | undefined, type: string): boolean {
  if (!accept || accept.length === 0) return true;
  const [major] = type.split('/');
  return accept.some((entry) => entry === type || entry === `${major}/*`);
}
