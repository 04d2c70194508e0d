/**
 * Issue 41's bad input: a burst of 500 submissions naming one stranger's address, at once, to a
 * form with an auto-reply and lfk's default limits. The address gets its share across lfk (5 a
 * day) and not one more; every other reply is skipped and counted on the form; every submission is
 * still kept. Through the procedures, with the limits counted in the database as replicas share them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { DEFAULT_RATE_LIMITS } from '../../rate-limits/rate-limits.ts';
import { count } from '../../../test/support/database.ts';
import { createContactForm } from '../../../test/support/forms.ts';
import { createKey } from '../../../test/support/keys.ts';
import { callerFor, type Person, person, testServices } from '../../../test/world.ts';

let services: Services;
let owner: Person;
let key: string;

beforeAll(async () => {
  services = await testServices({
    rateLimits: { auto_reply_recipients: DEFAULT_RATE_LIMITS.auto_reply_recipients, auto_reply_forms: DEFAULT_RATE_LIMITS.auto_reply_forms },
  });
  owner = await person(services);
  key = (await createKey(services, owner)).key;
});

describe('a burst naming one address', () => {
  it('500 at once: the address gets its 5 a day, 495 replies are skipped and counted, and all 500 submissions are kept', async () => {
    const form = await createContactForm(services, owner, { auto_reply: { email_field: 'email', subject: 'Thanks', text: 'You wrote: {message}' } });
    const victim = `victim-${form.id}@example.com`;
    const caller = await callerFor(services, key);
    const sent = await Promise.allSettled(
      Array.from({ length: 500 }, (_, i) => caller.submissions.create({ form_id: form.id, data: { name: `Bot ${i}`, email: victim, message: 'Buy now' } })),
    );
    expect(sent.filter((s) => s.status === 'rejected')).toEqual([]);
    expect(await count(services, 'submissions where form_id = ?', [form.id])).toBe(500);
    expect(await count(services, 'outbox_emails where kind = \'auto_reply\' and "to" = ?', [victim])).toBe(5);
    expect((await (await callerFor(services, owner.token)).forms.get({ form_id: form.id })).auto_replies_skipped).toBe(495);
  });
});
