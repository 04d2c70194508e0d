/** How many leading bytes sniffing reads: what `file-type` needs for every format it knows. */
export const SNIFF_BYTES = 4100;

const TEXT_DECODER = new TextDecoder('utf-8', { fatal: true });

/**
 * HTML's elements, those of today and the obsolete ones browsers still render: the WHATWG MIME
 * sniffing rules' markers (`<html`, `<head`, `<script`, `<iframe`, `<h1`, `<div`, `<font`, `<table`,
 * `<a`, `<style`, `<title`, `<b`, `<body`, `<br`, `<p`) and every other tag a browser would act on.
 */
const HTML_ELEMENTS = [
  'a',
  'abbr',
  'address',
  'applet',
  'area',
  'article',
  'aside',
  'audio',
  'b',
  'base',
  'basefont',
  'bdi',
  'bdo',
  'bgsound',
  'big',
  'blink',
  'blockquote',
  'body',
  'br',
  'button',
  'canvas',
  'caption',
  'center',
  'cite',
  'code',
  'col',
  'colgroup',
  'data',
  'datalist',
  'dd',
  'del',
  'details',
  'dfn',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'em',
  'embed',
  'fieldset',
  'figcaption',
  'figure',
  'font',
  'footer',
  'form',
  'frame',
  'frameset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'hgroup',
  'hr',
  'html',
  'i',
  'iframe',
  'image',
  'img',
  'input',
  'ins',
  'isindex',
  'kbd',
  'keygen',
  'label',
  'legend',
  'li',
  'link',
  'listing',
  'main',
  'map',
  'mark',
  'marquee',
  'math',
  'menu',
  'meta',
  'meter',
  'nav',
  'nobr',
  'noembed',
  'noframes',
  'noscript',
  'object',
  'ol',
  'optgroup',
  'option',
  'output',
  'p',
  'param',
  'picture',
  'plaintext',
  'portal',
  'pre',
  'progress',
  'q',
  'rp',
  'rt',
  'ruby',
  's',
  'samp',
  'script',
  'search',
  'section',
  'select',
  'slot',
  'small',
  'source',
  'span',
  'strike',
  'strong',
  'style',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'template',
  'textarea',
  'tfoot',
  'th',
  'thead',
  'time',
  'title',
  'tr',
  'track',
  'tt',
  'u',
  'ul',
  'var',
  'video',
  'wbr',
  'xmp',
];
/**
 * Markup anywhere in a text: a comment, a doctype, or an HTML tag (opening or closing) followed by
 * what ends a tag's name — the WHATWG rule's space and `>`, and also any white space and `/`
 * (`<img/src=x onerror=…>` is a tag to a browser). `<svg` is its own kind.
 */
const MARKUP = new RegExp(`<(?:!--|!doctype[\\s>]|/?(?:${HTML_ELEMENTS.join('|')})[\\s/>])`, 'i');
const SVG = /<svg[\s/>]/i;
/** The longest marker's length: a text scanned in pieces keeps this much of the last piece, so a marker cut in two is found. */
const MARKER_SPAN = 16;

/** The text a file's first bytes announce by a byte order mark: UTF-16 either way, else UTF-8 (with or without its BOM). */
function encodingOf(head: Buffer): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/** What a text holds: `image/svg+xml`, `text/html`, or null for no markup. */
const markupIn = (text: string) => (SVG.test(text) ? 'image/svg+xml' : MARKUP.test(text) ? 'text/html' : null);

/**
 * Reads a text file to its end, piece by piece, for what makes it other than plain text: markup
 * anywhere in it (not only in the bytes sniffed first), or bytes that are not text after all (not
 * in its encoding, or a NUL). Memory holds a piece, whatever the size.
 */
export class TextScan {
  readonly #decoder: InstanceType<typeof TextDecoder>;
  readonly #utf8: boolean;
  #tail = '';
  /** `text/plain` while nothing else was found; else what the text turned out to be. */
  kind: 'text/plain' | 'text/html' | 'image/svg+xml' | 'application/octet-stream' = 'text/plain';

  constructor(head: Buffer) {
    const encoding = encodingOf(head);
    this.#utf8 = encoding === 'utf-8';
    this.#decoder = new TextDecoder(encoding, { fatal: true });
  }

  push(chunk: Buffer): void {
    this.#read(chunk, true);
  }

  end(): void {
    this.#read(Buffer.alloc(0), false);
  }

  #read(chunk: Buffer, more: boolean): void {
    if (this.kind !== 'text/plain') return;
    if (this.#utf8 && chunk.includes(0)) {
      this.kind = 'application/octet-stream';
      return;
    }
    let text: string;
    try {
      text = this.#decoder.decode(chunk, { stream: more });
    } catch {
      this.kind = 'application/octet-stream';
      return;
    }
    const window = this.#tail + text;
    this.kind = markupIn(window) ?? 'text/plain';
    this.#tail = window.slice(-MARKER_SPAN);
  }
}

/** Whether `head` reads as text (UTF-8, or UTF-16 after its BOM; a cut last character allowed) with no NUL in UTF-8. */
function textOf(head: Buffer, whole: boolean): string | null {
  const encoding = encodingOf(head);
  if (encoding !== 'utf-8') {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(whole || head.length % 2 === 0 ? head : head.subarray(0, head.length - 1));
    } catch {
      // A window may end inside a surrogate pair.
      try {
        return whole ? null : new TextDecoder(encoding, { fatal: true }).decode(head.subarray(0, (head.length & ~1) - 2));
      } catch {
        return null;
      }
    }
  }
  if (head.includes(0)) return null;
  try {
    return TEXT_DECODER.decode(head);
  } catch {
    // The sniffed window may end inside a character: drop up to 3 trailing bytes and look again.
    if (whole) return null;
    for (let cut = 1; cut <= 3; cut++) {
      try {
        return TEXT_DECODER.decode(head.subarray(0, head.length - cut));
      } catch {}
    }
    return null;
  }
}

/** Text types a plain-text file may be stored as when it was sent as one and the field accepts it. */
const PLAIN_TEXT_KINDS = new Set(['text/plain', 'text/csv', 'text/tab-separated-values', 'text/markdown', 'application/json']);

/** Whether a sniffed type is one of the plain-text kinds, which a file's later bytes can still prove wrong (`TextScan`). */
export const isPlainText = (type: string) => PLAIN_TEXT_KINDS.has(type);

/**
 * The type a file's bytes show: what `file-type` recognises by signature; else, for text, markup
 * is `image/svg+xml` or `text/html` (what a browser would take it for) and anything else
 * `text/plain` (or the plain-text kind it was sent as, such as `text/csv`); else
 * `application/octet-stream`. The name and the sent type never make a file what its bytes are not.
 */
export async function sniffContentType(head: Buffer, whole: boolean, declared: string): Promise<string> {
  // Loaded by the first upload (about 50 modules), not at every start.
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(head);
  if (found) {
    if (found.mime === 'application/xml') {
      const text = head.toString('utf8');
      // XHTML is HTML to a browser that opens it as application/xhtml+xml.
      return SVG.test(text)
        ? 'image/svg+xml'
        : /xmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml["']/i.test(text)
          ? 'application/xhtml+xml'
          : 'application/xml';
    }
    return found.mime;
  }
  const text = head.length > 0 ? textOf(head, whole) : null;
  if (text !== null) {
    const markup = markupIn(text);
    if (markup) return markup;
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
