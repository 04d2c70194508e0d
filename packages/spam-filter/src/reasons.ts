import type { ContentSignal } from '@lfk/vocabulary';
import type { Signals } from './features.ts';
import type { Contribution } from './model.ts';

/** Why a submission scored as it did: DESIGN §19's `spam_reasons`. */
export interface SpamReasonEntry {
  code: ContentSignal;
  message: string;
}

const TRICK = 'a trick to slip past word filters';

/** Words quoted in a reason: the three that weighed most. */
const QUOTED = 3;
/** What a word must have added to the logit (scaled) to be quoted. */
const WEIGHS = 0.02;

const isWord = (token: string) => !token.startsWith('__') && !token.startsWith('url:');
const wordOf = (token: string) => token.replace(/^s:/, '');
const quoted = (words: string[]) => words.map((w) => `“${w}”`).join(', ');

function heaviest(contributions: readonly Contribution[], part: (c: Contribution) => number): string[] {
  const words: string[] = [];
  for (const c of [...contributions].filter((c) => isWord(c.token) && part(c) >= WEIGHS).sort((a, b) => part(b) - part(a))) {
    const word = wordOf(c.token);
    if (!words.includes(word)) words.push(word);
    if (words.length === QUOTED) break;
  }
  return words;
}

/**
 * The reasons for a score: each signal that pushed it towards spam (its token added to the logit),
 * the workspace's own marked words, and the words that weighed most in the shipped model. A signal
 * the model found innocent is not given as a reason, so every reason explains part of the score.
 */
export function reasonsFor(
  signals: Signals,
  contributions: readonly Contribution[],
  knownScripts: readonly string[],
  /** Whether quoting a word says something: not "the" or "your", unless the model finds it strongly spammy ("free"). */
  telling: (token: string) => boolean,
): SpamReasonEntry[] {
  const pushed = new Set(contributions.filter((c) => c.base + c.own > 0).map((c) => c.token));
  const reasons: SpamReasonEntry[] = [];
  if (signals.links >= 3 && pushed.has(`__links:${Math.min(signals.links, 5)}`)) {
    reasons.push({ code: 'many_links', message: `It has ${signals.links} links.` });
  }
  if (signals.shorteners.length > 0) {
    reasons.push({
      code: 'link_shortener',
      message: `It links through a link shortener (${signals.shorteners.slice(0, 3).join(', ')}), which hides where a link goes.`,
    });
  }
  if (signals.disposableSender) {
    reasons.push({ code: 'disposable_sender', message: "Its sender's address is at a disposable-mail domain, or is not an address." });
  }
  if (signals.mixedWords > 0) {
    reasons.push({
      code: 'mixed_scripts',
      message: `${signals.mixedWords === 1 ? 'A word mixes' : `${signals.mixedWords} words mix`} letters of different scripts, ${TRICK}.`,
    });
  }
  if (signals.mainScript !== null && signals.mainScript !== 'Latin' && !knownScripts.includes(signals.mainScript)) {
    reasons.push({ code: 'unexpected_script', message: `It is written in ${signals.mainScript} script, which no submission this workspace kept was in.` });
  }
  if (signals.html && pushed.has('__html')) {
    reasons.push({ code: 'html', message: 'It contains HTML markup, which a person typing in a form does not send.' });
  }
  const quotable = contributions.filter((c) => telling(c.token));
  const marked = heaviest(quotable, (c) => c.own);
  if (marked.length > 0) reasons.push({ code: 'marked_words', message: `Words this workspace has marked as spam before: ${quoted(marked)}.` });
  const spammy = heaviest(quotable, (c) => c.base);
  if (spammy.length > 0) reasons.push({ code: 'spammy_words', message: `Words common in spam: ${quoted(spammy)}.` });
  return reasons;
}
