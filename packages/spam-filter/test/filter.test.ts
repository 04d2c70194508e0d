import { describe, expect, it } from 'vitest';
import {
  baseModel,
  defaultThreshold,
  featuresOf,
  judgeContent,
  judgeMessage,
  LEARNING,
  learnFromMark,
  messageOf,
  NOTHING_LEARNED,
  SPRAYED_FORMS,
  type WorkspaceLearning,
} from '../src/index.ts';

const CONTACT = [
  { name: 'email', type: 'email' },
  { name: 'name', type: 'text' },
  { name: 'message', type: 'textarea' },
  { name: 'plan', type: 'select' },
];

const codes = (verdict: { reasons: { code: string }[] }) => verdict.reasons.map((r) => r.code);

describe('the content filter', () => {
  it('passes a plain question and explains spam with readable reasons, every reason with its sentence', () => {
    const ham = judgeContent(CONTACT, {
      email: 'ada@example.org',
      name: 'Ada',
      message: 'Hi, could you tell me whether the workshop on Thursday still has places? I would bring a colleague. Thanks, Ada',
    });
    expect(ham.score).toBeLessThan(defaultThreshold());

    const spam = judgeContent(CONTACT, {
      email: 'promo@mailinator.com',
      name: 'BEST OFFER',
      message:
        'CLICK HERE to get FREE money!!! Limited time offer, act now: https://bit.ly/xyz http://cheap-pills.example/buy ' +
        'http://win.example/prize Remove yourself from this list, guaranteed income, no credit check!!!',
    });
    expect(spam.score).toBeGreaterThan(defaultThreshold());
    expect(codes(spam)).toEqual(expect.arrayContaining(['many_links', 'link_shortener', 'disposable_sender', 'spammy_words']));
    for (const reason of spam.reasons) expect(reason.message).toMatch(/^[A-Z“].{10,200}\.$/);
    expect(spam.reasons.find((r) => r.code === 'link_shortener')!.message).toContain('bit.ly');
    expect(spam.reasons.find((r) => r.code === 'many_links')!.message).toBe('It has 3 links.');
  });

  it('lets ordinary form messages through at the default threshold: short, polite, commercial too', () => {
    // Not SpamAssassin's mail: what forms receive. Short messages have little evidence either way.
    for (const values of [
      { name: 'Ada Lovelace', email: 'ada@example.com', message: 'A quote for 40 seats, please.' },
      { name: 'Bob', email: 'bob@gmail.com', message: 'Please call me back about my order, thanks' },
      { name: 'Ada', email: 'ada@example.org', message: 'Loves 100% cotton' },
      { name: 'Sam', email: 'sam@gmail.com', message: 'Hi, I would like to book a table for 4 on Friday at 7pm. Thank you!' },
      { name: 'Grace Hopper', email: 'grace@example.com', message: 'Do you support COBOL?' },
    ]) {
      expect(judgeContent(CONTACT, values).score, values.message).toBeLessThan(defaultThreshold());
    }
  });

  it('a message seen at SPRAYED_FORMS forms scores higher and says how many, below that nothing changes', () => {
    const message = messageOf(CONTACT, { email: 'ada@example.org', message: 'Hello, is the Thursday workshop still open for two more people?' });
    const once = judgeMessage(message);
    expect(judgeMessage(message, NOTHING_LEARNED, { forms: SPRAYED_FORMS - 1 })).toEqual(once);
    const sprayed = judgeMessage(message, NOTHING_LEARNED, { forms: 7 });
    expect(sprayed.score).toBeGreaterThan(once.score);
    expect(sprayed.reasons.at(-1)).toEqual({ code: 'seen_across_forms', message: 'The same message came to 7 forms on this server in the last day.' });
  });

  it('reads only the form’s own text fields, by type: a choice or an unknown name teaches it nothing', () => {
    expect(messageOf(CONTACT, { email: ' Ada@Example.org ', name: 'Ada', message: 'hello', plan: 'viagra', extra: 'casino' })).toEqual({
      sender: 'ada@example.org',
      short: ['Ada'],
      long: ['hello'],
    });
    // A field named __proto__ is an own value like any other, never the prototype.
    expect(messageOf([{ name: '__proto__', type: 'textarea' }], JSON.parse('{"__proto__":"free money"}'))).toEqual({
      sender: null,
      short: [],
      long: ['free money'],
    });
    expect(messageOf([{ name: 'toString', type: 'textarea' }], {})).toEqual({ sender: null, short: [], long: [] });
  });

  it('sees through invisible characters, full-width letters and words mixing scripts', () => {
    const plain = featuresOf(messageOf(CONTACT, { message: 'free money' })).tokens;
    const hidden = featuresOf(messageOf(CONTACT, { message: 'fr\u200bee mo\u00adney' })).tokens;
    const wide = featuresOf(messageOf(CONTACT, { message: 'ｆｒｅｅ ｍｏｎｅｙ' })).tokens;
    expect(hidden).toEqual(expect.arrayContaining(['free', 'money']));
    expect(wide).toEqual(expect.arrayContaining(['free', 'money']));
    expect(plain).toEqual(expect.arrayContaining(['free', 'money']));
    // "саsinо" with a Cyrillic с, а and о.
    const homoglyph = judgeContent(CONTACT, { message: 'Play at our \u0441\u0430sin\u043e tonight' });
    expect(codes(homoglyph)).toContain('mixed_scripts');
    expect(homoglyph.reasons.find((r) => r.code === 'mixed_scripts')!.message).toBe(
      'A word mixes letters of different scripts, a trick to slip past word filters.',
    );
  });

  it('names a script the workspace never kept a submission in, until a member keeps one', () => {
    const cyrillic = { message: 'Здравствуйте, хотел бы узнать о ваших услугах и ценах на следующий месяц.' };
    expect(codes(judgeContent(CONTACT, cyrillic))).toContain('unexpected_script');
    const learned = learnFromMark(CONTACT, cyrillic, NOTHING_LEARNED, false);
    expect(learned.scripts).toEqual(['Cyrillic']);
    expect(codes(judgeContent(CONTACT, cyrillic, learned))).not.toContain('unexpected_script');
  });

  it('stays bounded on hostile text: 64 KiB of one word, 10,000 distinct words, every script at once', () => {
    const repeated = featuresOf(messageOf(CONTACT, { message: 'spam '.repeat(13_108) }));
    expect(repeated.tokens.filter((t) => !t.startsWith('__'))).toEqual(['spam']);
    const distinct = featuresOf(messageOf(CONTACT, { message: Array.from({ length: 10_000 }, (_, i) => `w${i.toString(36)}x`).join(' ') }));
    expect(distinct.tokens.length).toBeLessThanOrEqual(2000 + 10);
    expect(distinct.tokens).toContain('__links:0');
    // Tags that never close, and links that never end: read in one pass each.
    const unclosed = featuresOf(messageOf(CONTACT, { message: '<a'.repeat(10_000) }));
    expect(unclosed.signals.html).toBe(false);
    expect(featuresOf(messageOf(CONTACT, { message: `http://${'x'.repeat(19_990)}` })).signals.links).toBe(1);
    const everyScript = 'Hello Привет Γειά مرحبا שלום 你好 こんにちは カタカナ 안녕하세요 नमस्ते สวัสดี ሰላም';
    const verdict = judgeContent(CONTACT, { message: everyScript.repeat(500) });
    expect(verdict.score).toBeGreaterThanOrEqual(0);
    expect(verdict.score).toBeLessThanOrEqual(1);
  });
});

describe("a workspace's marks", () => {
  // Outreach the shipped model lets through: polite, few links, no shouting.
  const seo = (n: number) => ({
    email: `tom${n}@outreach${n}.example`,
    name: 'Tom',
    message: `Hello, I had a look at your site and we could help with SEO, backlinks and crypto payments. Happy to talk on Thursday. Regards, Tom (${n})`,
  });

  it('teach that workspace alone: its kind of spam goes over the threshold there, and elsewhere is judged as before', () => {
    const before = judgeContent(CONTACT, seo(1000));
    expect(before.score).toBeLessThan(defaultThreshold());
    let ours: WorkspaceLearning = NOTHING_LEARNED;
    for (let n = 0; n < 10; n++) ours = learnFromMark(CONTACT, seo(n), ours, true);
    const after = judgeContent(CONTACT, seo(1000), ours);
    expect(after.score).toBeGreaterThan(defaultThreshold());
    const marked = after.reasons.find((r) => r.code === 'marked_words')!.message;
    expect(marked).toMatch(/^Words this workspace has marked as spam before: “[^”]+”(, “[^”]+”){0,2}\.$/);
    // Words in a twentieth of all mail are never learned, so never quoted.
    const quoted = [...marked.matchAll(/“([^”]+)”/g)].map((m) => m[1]!);
    expect(quoted.filter((word) => baseModel().model.common.has(word))).toEqual([]);
    expect(quoted.length).toBeGreaterThan(0);
    const theirs: WorkspaceLearning = NOTHING_LEARNED;
    expect(judgeContent(CONTACT, seo(1000), theirs)).toEqual(before);
  });

  it('"not spam" pulls a message back under the threshold, and learning never changes the learning it was given', () => {
    const message = { email: 'buyer@example.org', message: 'FREE shipping offer?? click the link, limited time, act now!!! best price guaranteed' };
    let learned: WorkspaceLearning = NOTHING_LEARNED;
    for (let n = 0; n < 5; n++) learned = learnFromMark(CONTACT, message, learned, false);
    expect(judgeContent(CONTACT, message, learned).score).toBeLessThan(defaultThreshold());
    expect(NOTHING_LEARNED.weights.size).toBe(0);
  });

  it('keep at most LEARNING.maxWeights weights, none heavier than LEARNING.maxWeight', () => {
    let learned: WorkspaceLearning = NOTHING_LEARNED;
    const limits = { ...LEARNING };
    for (let n = 0; n < 60; n++) {
      const words = Array.from({ length: 400 }, (_, i) => `t${n}x${i}`).join(' ');
      learned = learnFromMark(CONTACT, { message: words }, learned, n % 2 === 0);
    }
    expect(learned.weights.size).toBeLessThanOrEqual(limits.maxWeights);
    for (const weight of learned.weights.values()) expect(Math.abs(weight)).toBeLessThanOrEqual(limits.maxWeight);
  });
});
