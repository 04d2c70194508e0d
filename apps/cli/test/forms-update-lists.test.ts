import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Home, newHome, ownerKey, startWorld, stopWorld } from './harness.ts';

// `forms update` changes one field or origin with --add-…/--remove-…; --field and --origin give the
// whole list, and say so when that drops what was there.

let agent: Home;

beforeAll(async () => {
  await startWorld();
  agent = await newHome({ LFK_API_KEY: (await ownerKey('lists')).key });
});
afterAll(stopWorld);

async function newForm(): Promise<string> {
  const created = await agent.lfk([
    'forms',
    'create',
    '--name',
    'Lists',
    '--field',
    'email:email:required',
    '--field',
    'message:textarea',
    '--origin',
    'https://a.example',
    '--origin',
    'https://b.example',
    '--json',
  ]);
  expect(created.code, created.stderr).toBe(0);
  return created.json.id;
}

const stored = async (id: string) => (await agent.lfk(['forms', 'get', id, '--json'])).json;

describe('forms update, one item at a time', () => {
  it('--add-field keeps every other field', async () => {
    const id = await newForm();
    const result = await agent.lfk(['forms', 'update', id, '--add-field', 'phone:tel', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json.schema.map((f: any) => f.name)).toEqual(['email', 'message', 'phone']);
    expect((await stored(id)).schema).toEqual([
      { name: 'email', type: 'email', required: true },
      { name: 'message', type: 'textarea', required: false },
      { name: 'phone', type: 'tel', required: false },
    ]);
  });

  it('--remove-field and --add-origin/--remove-origin change only what they name', async () => {
    const id = await newForm();
    const result = await agent.lfk([
      'forms',
      'update',
      id,
      '--remove-field',
      'message',
      '--add-origin',
      'https://C.example/',
      '--remove-origin',
      'https://a.example',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const form = await stored(id);
    expect(form.schema.map((f: any) => f.name)).toEqual(['email']);
    expect(form.allowed_origins).toEqual(['https://b.example', 'https://c.example']);
  });

  it('refuses to remove what is not there or add what is, changing nothing', async () => {
    const id = await newForm();
    const before = await stored(id);
    const missing = await agent.lfk(['forms', 'update', id, '--remove-field', 'fax']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: not_in_form: The form has no field "fax"/);
    const twice = await agent.lfk(['forms', 'update', id, '--add-origin', 'https://a.example']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^error: already_in_form: /);
    const both = await agent.lfk(['forms', 'update', id, '--field', 'x:text', '--add-field', 'y:text']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^error: conflicting_flags: /);
    expect(await stored(id)).toEqual(before);
  });
});

describe('forms update, the whole list', () => {
  it('--field replaces every field and says which were dropped (on stderr, for a script)', async () => {
    const id = await newForm();
    const result = await agent.lfk(['forms', 'update', id, '--field', 'email:email:required', '--field', 'phone:tel']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('warning: This replaces every field of the form: "message" will be removed.');
    expect((await stored(id)).schema.map((f: any) => f.name)).toEqual(['email', 'phone']);
  });

  it('--origin replaces every origin, and says so', async () => {
    const id = await newForm();
    const result = await agent.lfk(['forms', 'update', id, '--origin', 'https://c.example', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('"https://a.example", "https://b.example" will be removed');
    expect(result.json.allowed_origins).toEqual(['https://c.example']);
  });

  it('a replacement that drops nothing says nothing', async () => {
    const id = await newForm();
    const result = await agent.lfk(['forms', 'update', id, '--field', 'email:email:required', '--field', 'message:textarea', '--field', 'extra:text']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('warning');
  });
});

describe('--unknown-fields', () => {
  it('says what a submitted field the form does not name gets, and shows it', async () => {
    const id = await newForm();
    expect((await stored(id)).unknown_fields).toBe('reject');
    const kept = await agent.lfk(['forms', 'update', id, '--unknown-fields', 'keep']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toMatch(/unknown fields\s+keep \(stored as text after the form's own fields\)/);
    expect((await stored(id)).unknown_fields).toBe('keep');
    const wrong = await agent.lfk(['forms', 'update', id, '--unknown-fields', 'store']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Allowed choices are reject, keep, ignore.');
  });
});

describe('--notify-email, repeated', () => {
  it('sets several addresses, each shown with whether it is verified; --no-notify-email clears them all', async () => {
    const id = await newForm();
    const set = await agent.lfk(['forms', 'update', id, '--notify-email', 'sales@example.com', '--notify-email', 'support@example.com']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(
      /notify emails\s+sales@example\.com \(not verified\), support@example\.com \(not verified\); no submission is emailed until one is/,
    );
    expect((await stored(id)).notify_emails).toEqual(['sales@example.com', 'support@example.com']);
    const resent = await agent.lfk(['forms', 'resend-verification', id]);
    // Setting them just sent their links: too soon.
    expect(resent.code).toBe(5);
    const cleared = await agent.lfk(['forms', 'update', id, '--no-notify-email', '--json']);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.json.notify_emails).toEqual([]);
  });
});

describe('--auto-reply-…', () => {
  it('sets the auto-reply (its text from standard input), shows and previews it, turns it off, and removes it', async () => {
    const id = await newForm();
    const set = await agent.lfk(
      [
        'forms',
        'update',
        id,
        '--unknown-fields',
        'keep',
        '--auto-reply-field',
        'email',
        '--auto-reply-subject',
        'Thanks for writing',
        '--auto-reply-text',
        '-',
      ],
      { input: 'We got your message:\n{message}\n' },
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/auto-reply\s+on: to the address in "email", subject "Thanks for writing"/);
    expect((await stored(id)).auto_reply).toEqual({
      enabled: true,
      email_field: 'email',
      subject: 'Thanks for writing',
      text: 'We got your message:\n{message}',
    });

    const preview = await agent.lfk(['forms', 'preview-emails', id]);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toContain('Notification\n(none: the form has no notification address)');
    expect(preview.stdout).toMatch(
      new RegExp(
        /Auto-reply\nTo: someone@example\.com\nSubject: Thanks for writing\nList-Unsubscribe: <http:\/\/[^>]+\/v1\/auto-reply-stops\/lfu_[^>]+>\n\n/.source +
          /We got your message:\nA few lines of text,\nas a person writes them\./.source,
      ),
    );

    const off = await agent.lfk(['forms', 'update', id, '--auto-reply', 'off', '--json']);
    expect(off.json.auto_reply).toMatchObject({ enabled: false, subject: 'Thanks for writing' });
    const wrongField = await agent.lfk(['forms', 'update', id, '--auto-reply-field', 'message']);
    expect(wrongField.code).toBe(1);
    expect(wrongField.stderr).toContain('auto_reply.email_field: Must name one of the form’s email fields');
    const removed = await agent.lfk(['forms', 'update', id, '--no-auto-reply', '--json']);
    expect(removed.json.auto_reply).toBeNull();
  });
});
