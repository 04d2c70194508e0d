/**
 * Issue 39: the form cache's own rules (features/forms/form-cache.ts) and how its listener drives it
 * (features/forms/form-change-listener.ts). What a submission observes through them is in
 * apps/server/test/forms/form-cache.test.ts.
 */
import type { Database, NotificationHandlers, SubmissionFormReading } from '@lfk/db';
import { FORM_CHANGED_CHANNEL } from '@lfk/db';
import { describe, expect, it } from 'vitest';
import { FORM_CACHE_MAX_CHARACTERS, FormCache } from './form-cache.ts';
import { followFormChanges } from './form-change-listener.ts';

/** A form as `readForSubmission` answers it; `fields` makes its JSON as long as needed. */
function reading(id: string, fields = 1): SubmissionFormReading {
  return {
    id,
    workspace: { id: 'ws_1' },
    project: null,
    name: 'Contact',
    state: 'claimed',
    schema: Array.from({ length: fields }, (_, i) => ({ name: `field_${i}`, type: 'select', required: false, options: ['a', 'b'] })),
    unknownFields: 'reject',
    submissionMode: 'browser',
    allowedOrigins: ['https://site.example'],
    notifyEmails: [],
    notifyFallback: null,
    refusedOrigins: null,
    redirectUrl: null,
    errorRedirectUrl: null,
    honeypot: null,
    captchaProvider: null,
    captchaSiteKey: null,
    captchaSecretSealed: null,
    closed: false,
    closesAt: new Date('2030-01-01T00:00:00Z'),
    maxSubmissions: null,
    closedMessage: null,
    retentionDays: null,
    autoReply: null,
    autoRepliesSkipped: 0,
    drafts: null,
    spamFilter: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-01T00:00:00Z'),
    hasWebhooks: false,
  };
}

/** A cache whose clock the test moves by hand, hearing changes (resumed) unless told otherwise. */
function cacheAt(options: { maxEntries: number; ttlMs: number }, { hearing = true } = {}) {
  const clock = { now: 1_000_000 };
  const cache = new FormCache({ ...options, now: () => clock.now });
  if (hearing) cache.resume();
  return { cache, clock };
}

/** What a submission does: the cache, else a read of the database (`read`) kept if nothing changed meanwhile. */
function find(cache: FormCache, id: string, read: () => SubmissionFormReading): SubmissionFormReading {
  const cached = cache.lookup(id);
  if (cached) return cached;
  const generation = cache.generation();
  return cache.keep(read(), generation);
}

describe('FormCache', () => {
  it('keeps a form read from the database, by id: the next lookup needs no read', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 1000 });
    expect(cache.lookup('form_1')).toBeUndefined();
    let reads = 0;
    const read = () => {
      reads++;
      return reading('form_1');
    };
    const first = find(cache, 'form_1', read);
    const second = find(cache, 'form_1', read);
    expect(reads).toBe(1);
    expect(second).toBe(first);
    expect(second).toEqual(reading('form_1'));
    expect(cache.lookup('form_2')).toBeUndefined();
    expect(cache.size.forms).toBe(1);
  });

  it('is suspended until it hears changes: built without a listener, every lookup asks the database', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 1000 }, { hearing: false });
    cache.keep(reading('form_1'), cache.generation());
    expect(cache.lookup('form_1')).toBeUndefined();
    expect(cache.size.forms).toBe(0);
    cache.resume();
    cache.keep(reading('form_1'), cache.generation());
    expect(cache.lookup('form_1')).toEqual(reading('form_1'));
  });

  it('forgets a changed form: the next lookup asks the database, and other forms stay', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 1000 });
    cache.keep(reading('form_1'), cache.generation());
    cache.keep(reading('form_2'), cache.generation());
    cache.forget('form_1');
    expect(cache.lookup('form_1')).toBeUndefined();
    expect(cache.lookup('form_2')).toEqual(reading('form_2'));
  });

  it('does not keep a read that raced with a change: the change was forgotten before the read came back', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 1000 });
    const generation = cache.generation();
    // The read is on its way with the old row; meanwhile the form changes, and is forgotten.
    cache.forget('form_1');
    const stale = cache.keep(reading('form_1'), generation);
    expect(stale).toEqual(reading('form_1'));
    expect(cache.lookup('form_1')).toBeUndefined();
    // Another form's change drops it too: the counter does not know which form a read is for.
    const next = cache.generation();
    cache.forget('form_2');
    cache.keep(reading('form_1'), next);
    expect(cache.lookup('form_1')).toBeUndefined();
    // A read that raced with nothing is kept.
    cache.keep(reading('form_1'), cache.generation());
    expect(cache.lookup('form_1')).toEqual(reading('form_1'));
  });

  it('suspended (the channel lost), forgets everything and keeps nothing; resumed, keeps what is read from then on', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 1000 });
    cache.keep(reading('form_1'), cache.generation());
    const before = cache.generation();
    cache.suspend();
    expect(cache.lookup('form_1')).toBeUndefined();
    expect(cache.size.forms).toBe(0);
    cache.keep(reading('form_1'), cache.generation());
    expect(cache.size.forms).toBe(0);
    // A read that began before the resume may hold a change made while nothing was heard.
    const duringLoss = cache.generation();
    cache.resume();
    cache.keep(reading('form_1'), duringLoss);
    cache.keep(reading('form_1'), before);
    expect(cache.lookup('form_1')).toBeUndefined();
    cache.keep(reading('form_1'), cache.generation());
    expect(cache.lookup('form_1')).toEqual(reading('form_1'));
  });

  it('trusts a form for exactly the TTL, by the clock it is given', () => {
    const { cache, clock } = cacheAt({ maxEntries: 10, ttlMs: 1000 });
    const keptAt = clock.now;
    cache.keep(reading('form_1'), cache.generation());
    clock.now = keptAt + 999;
    expect(cache.lookup('form_1')).toEqual(reading('form_1'));
    clock.now = keptAt + 1000;
    expect(cache.lookup('form_1')).toBeUndefined();
    expect(cache.size.forms).toBe(0);
  });

  it('is bounded: past maxEntries the oldest kept goes, whether or not it was read', () => {
    const { cache } = cacheAt({ maxEntries: 3, ttlMs: 60_000 });
    for (const n of [1, 2, 3]) cache.keep(reading(`form_${n}`), cache.generation());
    expect(cache.lookup('form_1')).toBeDefined();
    cache.keep(reading('form_4'), cache.generation());
    expect(cache.size.forms).toBe(3);
    expect(cache.lookup('form_1')).toBeUndefined();
    expect(['form_2', 'form_3', 'form_4'].map((id) => cache.lookup(id)?.id)).toEqual(['form_2', 'form_3', 'form_4']);
  });

  it('is bounded by what its forms weigh too: big forms push the oldest out, and one bigger than the whole budget is not kept', () => {
    const { cache } = cacheAt({ maxEntries: 10_000, ttlMs: 60_000 });
    const big = (id: string) => reading(id, 40_000);
    const weight = JSON.stringify(big('form_0')).length;
    const fit = Math.floor(FORM_CACHE_MAX_CHARACTERS / weight);
    expect(fit).toBeGreaterThan(1);
    for (let n = 0; n <= fit; n++) cache.keep(big(`form_${n}`), cache.generation());
    expect(cache.size.forms).toBe(fit);
    expect(cache.size.characters).toBeLessThanOrEqual(FORM_CACHE_MAX_CHARACTERS);
    expect(cache.lookup('form_0')).toBeUndefined();
    expect(cache.lookup(`form_${fit}`)?.id).toBe(`form_${fit}`);

    const huge = reading('form_huge', Math.ceil(FORM_CACHE_MAX_CHARACTERS / 60));
    expect(JSON.stringify(huge).length).toBeGreaterThan(FORM_CACHE_MAX_CHARACTERS);
    expect(cache.keep(huge, cache.generation()).id).toBe('form_huge');
    expect(cache.lookup('form_huge')).toBeUndefined();
    // Refusing it pushed nothing out.
    expect(cache.size.forms).toBe(fit);
  });

  it.each([
    { maxEntries: 0, ttlMs: 60_000 },
    { maxEntries: 10, ttlMs: 0 },
  ])('is off with %o: nothing is kept', (options) => {
    const { cache } = cacheAt(options);
    cache.keep(reading('form_1'), cache.generation());
    expect(cache.lookup('form_1')).toBeUndefined();
    expect(cache.size.forms).toBe(0);
  });

  it('hands out frozen forms, kept or not: no request can change what the next one reads', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 60_000 });
    const kept = cache.keep(reading('form_1'), cache.generation());
    const { cache: off } = cacheAt({ maxEntries: 0, ttlMs: 0 });
    const notKept = off.keep(reading('form_2'), off.generation());
    for (const form of [kept, notKept, cache.lookup('form_1')!]) {
      expect(() => {
        (form as { closed: boolean }).closed = true;
      }).toThrow(TypeError);
      expect(() => (form.schema as unknown[]).push({ name: 'x', type: 'text', required: false })).toThrow(TypeError);
      expect(() => {
        (form.schema[0] as { required: boolean }).required = true;
      }).toThrow(TypeError);
      expect(() => (form.schema[0]!.options as string[]).push('c')).toThrow(TypeError);
      expect(() => (form.allowedOrigins as string[]).push('https://evil.example')).toThrow(TypeError);
      expect(() => {
        (form.workspace as { id: string }).id = 'ws_2';
      }).toThrow(TypeError);
      expect(() => form.closesAt!.setTime(0)).toThrow(TypeError);
      expect(() => form.createdAt.setFullYear(1999)).toThrow(TypeError);
    }
    expect(cache.lookup('form_1')).toEqual(reading('form_1'));
    expect(cache.lookup('form_1')!.closesAt!.getTime()).toBe(Date.parse('2030-01-01T00:00:00Z'));
  });
});

describe('followFormChanges', () => {
  /** A database whose channel the test drives: what `listen` was given. */
  function fakeDatabase() {
    const channel = { name: '', handlers: undefined as NotificationHandlers | undefined };
    const db = {
      listen(name: string, handlers: NotificationHandlers) {
        channel.name = name;
        channel.handlers = handlers;
        return { close: async () => {} };
      },
    } as unknown as Database;
    return { db, channel };
  }
  const logs: string[] = [];
  const log = { debug() {}, info: (_: unknown, msg: string) => logs.push(msg), warn: (_: unknown, msg: string) => logs.push(msg), error() {} };

  it('keeps the cache off until listening, forgets what it hears, and is off again while the channel is lost', () => {
    const { db, channel } = fakeDatabase();
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 60_000 });
    followFormChanges(db, cache, log);
    expect(channel.name).toBe(FORM_CHANGED_CHANNEL);
    cache.keep(reading('form_1'), cache.generation());
    expect(cache.lookup('form_1')).toBeUndefined();

    channel.handlers!.onListening();
    cache.keep(reading('form_1'), cache.generation());
    cache.keep(reading('form_2'), cache.generation());
    channel.handlers!.onNotification('form_1');
    expect(cache.lookup('form_1')).toBeUndefined();
    expect(cache.lookup('form_2')).toBeDefined();

    channel.handlers!.onLost(new Error('connection reset'));
    expect(cache.lookup('form_2')).toBeUndefined();
    cache.keep(reading('form_2'), cache.generation());
    expect(cache.lookup('form_2')).toBeUndefined();
    // Each attempt to listen again that fails is not logged again.
    channel.handlers!.onLost(new Error('connection refused'));
    channel.handlers!.onListening();
    cache.keep(reading('form_2'), cache.generation());
    expect(cache.lookup('form_2')).toBeDefined();
    expect(logs.filter((line) => line.startsWith('lost the form change channel'))).toHaveLength(1);
    expect(logs.filter((line) => line.startsWith('hearing form changes'))).toHaveLength(2);
  });
});
