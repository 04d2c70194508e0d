import MailChecker from 'mailchecker';
import type { Message } from './message.ts';
import { readScripts, type Script } from './scripts.ts';

/** What the filter noticed, beyond words: what its reasons are told from. */
export interface Signals {
  /** Links in the message (written out, or an HTML `href`). */
  links: number;
  /** Hosts of link shorteners among them. */
  shorteners: string[];
  /** The sender's address is at a disposable-mail domain (or is no address at all). */
  disposableSender: boolean;
  /** The script most of the letters are in. */
  mainScript: Script | null;
  /** Words mixing scripts. */
  mixedWords: number;
  /** The message carries HTML markup, which a person typing in a form does not. */
  html: boolean;
}

export interface Features {
  /** Distinct tokens: words (`s:` before those of short answers), and the signals as `__` tokens. */
  tokens: string[];
  signals: Signals;
}

/** Characters of each answer read: what decides a verdict is at the start, and work stays bounded. */
const READ_PER_ANSWER = 20_000;
/** Distinct tokens kept: the first ones, in reading order. */
const MAX_TOKENS = 2000;
/** Longer runs are not words (hashes, base64, keyboard mashing). */
const MAX_WORD = 24;

/** Well-known link shorteners: a link that hides where it goes. */
const SHORTENERS = new Set([
  'bit.ly',
  'tinyurl.com',
  'goo.gl',
  't.co',
  'ow.ly',
  'is.gd',
  'buff.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'tiny.cc',
  'rb.gy',
  's.id',
  't.ly',
  'bl.ink',
  'v.gd',
  'lnkd.in',
  'soo.gd',
]);

// Soft hyphens, zero-width and direction marks, fillers; the combining grapheme joiner apart (it joins what precedes it).
const INVISIBLE = /[\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]|\u034f/g;
const URL = /\bhttps?:\/\/[^\s<>"'()[\]{}]+|\bwww\.[^\s<>"'()[\]{}]+/gi;
// Bounded inside a tag: `[^>]*` against 20,000 characters of `<a<a<a…` without a `>` is quadratic.
const TAG = /<\/?[a-z][^<>]{0,500}>/gi;
const LOOKS_HTML = /<(?:html|body|head|font|br|p|div|span|table|td|a|img|b|center)\b[^<>]{0,500}>/i;
const ENTITY = /&(?:nbsp|amp|lt|gt|quot|#\d{1,6});/gi;
const WORD = /[\p{L}\p{N}$€£¥][\p{L}\p{N}\p{M}'$€£¥.-]*[\p{L}\p{N}\p{M}$]|[\p{L}\p{N}$€£¥]/gu;

/** The text a person reads: invisible characters gone, compatibility forms folded (NFKC: full-width letters, ligatures). */
const normalized = (text: string) => text.slice(0, READ_PER_ANSWER).normalize('NFKC').replace(INVISIBLE, '');

/** A link's host, lowercased, without `www.`; null for one that is not a host. */
function hostOf(link: string): string | null {
  const host = link
    .replace(/^https?:\/\//i, '')
    .split(/[/?#:@]/)[0]!
    .toLowerCase()
    .replace(/^www\./, '');
  return /^[a-z0-9.-]+\.[a-z]{2,}$/.test(host) ? host : null;
}

/** The last two labels of a host: `mail.example.com` and `example.com` are one site to the model. */
const siteOf = (host: string) => host.split('.').slice(-2).join('.');

/** Buckets a count: a few values the model can weigh, not one token per number. */
const bucket = (count: number, size: number, top: number) => Math.min(top, Math.floor(count / size));

export function featuresOf(message: Message): Features {
  const tokens = new Set<string>();
  // Words stop at the limit; the few signal and sender tokens below are always added.
  const add = (token: string) => {
    if (tokens.size < MAX_TOKENS) tokens.add(token);
  };
  const always = (token: string) => tokens.add(token);
  const signals: Signals = { links: 0, shorteners: [], disposableSender: false, mainScript: null, mixedWords: 0, html: false };
  let letters = '';
  let capitalWords = 0;
  let exclamations = 0;

  const read = (raw: string, prefix: string) => {
    let text = normalized(raw);
    for (const link of text.match(URL) ?? []) {
      signals.links++;
      const host = hostOf(link);
      if (host === null) continue;
      add(`url:${siteOf(host)}`);
      if (SHORTENERS.has(host) && !signals.shorteners.includes(host)) signals.shorteners.push(host);
    }
    if (LOOKS_HTML.test(text)) {
      signals.html = true;
      text = text.replace(TAG, ' ').replace(ENTITY, ' ');
    }
    const words = text.replace(URL, ' ');
    capitalWords += words.match(/\b[A-Z]{4,}\b/g)?.length ?? 0;
    exclamations += words.match(/!/g)?.length ?? 0;
    // What readScripts reads (its first 4,000 letters), not every answer whole.
    if (letters.length < 4000) letters += `${words.slice(0, 4000)} `;
    for (const word of words.toLowerCase().match(WORD) ?? []) {
      if (word.length < 2 || word.length > MAX_WORD) continue;
      add(prefix + word);
    }
  };
  for (const answer of message.short) read(answer, 's:');
  for (const answer of message.long) read(answer, '');

  // The sender's domain itself is no token: in the corpus ham came from mailing lists and spam from
  // `.com`, which would make every gmail.com visitor suspect. Only a disposable domain says something.
  if (message.sender !== null) signals.disposableSender = !MailChecker.isValid(message.sender);
  const scripts = readScripts(letters);
  signals.mainScript = scripts.main;
  signals.mixedWords = scripts.mixedWords;

  // The signals as tokens too: the model weighs them as it weighs words.
  always(`__links:${Math.min(signals.links, 5)}`);
  if (signals.shorteners.length > 0) always('__shortener');
  if (signals.disposableSender) always('__disposable');
  if (signals.html) always('__html');
  if (signals.mixedWords > 0) always('__mixed_script');
  if (signals.mainScript !== null && signals.mainScript !== 'Latin') always(`__script:${signals.mainScript}`);
  always(`__caps:${bucket(capitalWords, 3, 5)}`);
  always(`__excl:${bucket(exclamations, 2, 3)}`);
  return { tokens: [...tokens], signals };
}
