/**
 * The writing systems in a text: which one most of its letters are in, and whether a word mixes
 * two (a Cyrillic "а" among Latin letters: a homoglyph trick to slip past word lists).
 */

/** The scripts the filter tells apart; letters in any other count as `Other`. */
const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Devanagari', 'Thai'] as const;
export type Script = (typeof SCRIPTS)[number] | 'Other';

const PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`\\p{Script=${script}}`, 'u')] as const);
const LETTER = /\p{L}/u;

function scriptOf(char: string): Script | null {
  // ASCII, most of what forms receive, without a regular expression.
  const code = char.charCodeAt(0);
  if (code < 0x80) return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) ? 'Latin' : null;
  if (!LETTER.test(char)) return null;
  for (const [script, pattern] of PATTERNS) if (pattern.test(char)) return script;
  return 'Other';
}

/** Kana and Han write one language: counted together as Japanese and Chinese text is. */
const FAMILY: Partial<Record<Script, Script>> = { Hiragana: 'Han', Katakana: 'Han' };

export interface ScriptReading {
  /** The script of most letters; null for a text without letters. */
  main: Script | null;
  /** Words whose letters come from more than one script (at most the first 20 letters of each). */
  mixedWords: number;
}

/** Reads at most `limit` characters: the verdict of the first 4,000 letters is the verdict of the text. */
export function readScripts(text: string, limit = 4000): ScriptReading {
  const counts = new Map<Script, number>();
  let mixedWords = 0;
  let wordScript: Script | null = null;
  let wordMixed = false;
  let seen = 0;
  for (const char of text) {
    if (++seen > limit) break;
    const found = scriptOf(char);
    if (found === null) {
      if (wordMixed) mixedWords++;
      wordScript = null;
      wordMixed = false;
      continue;
    }
    const script = FAMILY[found] ?? found;
    counts.set(script, (counts.get(script) ?? 0) + 1);
    if (wordScript === null) wordScript = script;
    else if (wordScript !== script) wordMixed = true;
  }
  if (wordMixed) mixedWords++;
  let main: Script | null = null;
  let most = 0;
  for (const [script, count] of counts) if (count > most) [main, most] = [script, count];
  return { main, mixedWords };
}
