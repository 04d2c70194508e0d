import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isId, newId, OutboxEmail, openDatabase, User } from '../src/index.ts';
import { migrationsList } from '../src/migrations/index.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

describe('ids', () => {
  it('are prefixed, 26 characters of Crockford base32, and sort in creation order', () => {
    const ids = Array.from({ length: 1000 }, () => newId('key'));
    for (const id of ids) expect(isId('key', id)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
    // The first 10 characters are the creation time in milliseconds.
    const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
    const millis = [...ids[0]!.slice(4, 14)].reduce((acc, c) => acc * 32 + ALPHABET.indexOf(c), 0);
    expect(Math.abs(millis - Date.now())).toBeLessThan(60_000);
    expect(isId('ws', ids[0])).toBe(false);
    expect(isId('key', `${ids[0]}x`)).toBe(false);
    expect(isId('key', 'key_ILOU0000000000000000000000')).toBe(false);
  });
});

describe.runIf(!TEST_DATABASE_URL)('embedded PGlite', () => {
  it('applies the migrations once and keeps data across reopenings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lfk-db-'));
    try {
      const first = await openDatabase({ dataDir: join(dir, 'nested', 'data') });
      expect(first.engine).toBe('pglite');
      expect(await first.isReady()).toBe(true);
      const em = first.fork();
      em.create(User, { id: newId('usr'), email: 'kept@example.com', name: null, passwordHash: 'x' });
      await em.flush();
      await first.close();

      const second = await openDatabase({ dataDir: join(dir, 'nested', 'data') });
      expect(await second.fork().count(User, { email: 'kept@example.com' })).toBe(1);
      const applied = await second.fork().execute<{ name: string }[]>('select name from mikro_orm_migrations');
      expect(applied.map((r) => r.name)).toEqual(migrationsList.map((m) => m.name));
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('what a raw statement reads back', () => {
  // Every type lfk reads comes back alike on both engines, or as its text where MikroORM keeps it so.
  it('json, booleans, integers, arrays and times, on either engine', async () => {
    const db = await openDatabase(TEST_DATABASE_URL ? { databaseUrl: TEST_DATABASE_URL } : {});
    try {
      const [row] = await db.fork().execute<Record<string, unknown>[]>(
        `select '{"a":[1,"b"]}'::jsonb as jsonb, '[true]'::json as json, true as bool, 7::int4 as int4, 9::int8 as int8,
                array['x','y']::text[] as texts, array[1,2]::int4[] as ints, '2026-01-02T03:04:05Z'::timestamptz as at,
                array['2026-01-02T03:04:05Z'::timestamptz] as ats, 'z'::text as text`,
      );
      expect(row).toMatchObject({ jsonb: { a: [1, 'b'] }, json: [true], bool: true, int4: 7, texts: ['x', 'y'], ints: [1, 2], text: 'z' });
      // int8 as the drivers give it (a string on PostgreSQL's pg, a number on PGlite): read with Number() where lfk reads one.
      expect(Number(row!.int8)).toBe(9);
      expect(new Date(row!.at as string).toISOString()).toBe('2026-01-02T03:04:05.000Z');
      expect((row!.ats as unknown[]).map((at) => new Date(at as string).toISOString())).toEqual(['2026-01-02T03:04:05.000Z']);
    } finally {
      await db.close();
    }
  });
});

describe('the outbox', () => {
  it('hands out due emails oldest first, however their rows lie on disk', async () => {
    const db = await openDatabase(TEST_DATABASE_URL ? { databaseUrl: TEST_DATABASE_URL } : {});
    // Due long ago, so no other test's mail in a shared database is claimed with them.
    const due = new Date('2001-02-03T04:05:06Z');
    const to = `outbox-order-${Date.now()}@example.com`;
    try {
      const outbox = db.fork().getRepository(OutboxEmail);
      for (let i = 0; i < 12; i++) await outbox.writeNow({ kind: 'password_reset', to, subject: `link ${i}`, body: `link ${i}` }, due);
      // Updated rows are written anew at the heap's end: the oldest six now lie after the others.
      await db
        .fork()
        .execute(`update outbox_emails set attempts = 0 where "to" = ? and subject in ('link 0','link 1','link 2','link 3','link 4','link 5')`, [to]);
      const claimed = await outbox.claimDue(new Date(due.getTime() + 1000), new Date(), 12);
      expect(claimed.map((e) => e.subject)).toEqual(Array.from({ length: 12 }, (_, i) => `link ${i}`));
    } finally {
      await db.fork().execute('delete from outbox_emails where "to" = ?', [to]);
      await db.close();
    }
  });
});

describe.runIf(TEST_DATABASE_URL)('PostgreSQL', () => {
  it('applies the same migrations, idempotently', async () => {
    const first = await openDatabase({ databaseUrl: TEST_DATABASE_URL });
    expect(first.engine).toBe('postgresql');
    expect(await first.isReady()).toBe(true);
    await first.close();
    const second = await openDatabase({ databaseUrl: TEST_DATABASE_URL });
    const applied = await second.fork().execute<{ name: string }[]>('select name from mikro_orm_migrations');
    expect(applied.map((r) => r.name)).toEqual(migrationsList.map((m) => m.name));
    await second.close();
  });
});

describe('the entities and the migrations', () => {
  it('describe the same schema: the only differences are the triggers (revocations, form changes, deleted files), which only migrations hold', async () => {
    const db = TEST_DATABASE_URL ? await openDatabase({ databaseUrl: TEST_DATABASE_URL }) : await openDatabase({ dataDir: 'memory://' });
    try {
      const drift = await db.orm.schema.getUpdateSchemaSQL({ wrap: false });
      const statements = drift.split('\n').filter((line) => line.trim() !== '');
      // In whatever order the engine lists the tables.
      expect(statements.toSorted()).toEqual(
        [
          'drop trigger if exists "api_keys_notify_revoked" on "api_keys";',
          'drop function if exists "api_keys_api_keys_notify_revoked_fn"();',
          'drop trigger if exists "forms_notify_changed" on "forms";',
          'drop function if exists "forms_forms_notify_changed_fn"();',
          'drop trigger if exists "webhook_endpoints_notify_form_changed" on "webhook_endpoints";',
          'drop function if exists "webhook_endpoints_webhook_endpoints_notify_form_changed_fn"();',
          'drop trigger if exists "submission_files_deleted" on "submission_files";',
          'drop function if exists "submission_files_submission_files_deleted_fn"();',
        ].toSorted(),
      );
    } finally {
      await db.close();
    }
  });
});
