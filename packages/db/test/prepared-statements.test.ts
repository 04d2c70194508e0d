/**
 * Issue 39: hot statements run as named statements on PostgreSQL's pool outside a transaction,
 * through the EntityManager inside one (and always on PGlite); either way a statement's errors are
 * MikroORM's, which the API maps to the wire in one place, and a transaction keeps what it wrote.
 */
import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, newId, openDatabase, PreparedStatement, runPrepared } from '../src/index.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

let db: Database;
const table = `prepared_${newId('sub').slice(4, 14)}`;
const insert = new PreparedStatement(`lfk_test_insert_${table}`, `insert into ${table} (id, parent) values ($1, $2)`);
const count = new PreparedStatement(`lfk_test_count_${table}`, `select count(*)::int as n from ${table} where id like $1`);

beforeAll(async () => {
  db = await openDatabase(TEST_DATABASE_URL ? { databaseUrl: TEST_DATABASE_URL } : {});
  const em = db.fork();
  await em.execute(`create table ${table}_parents (id text primary key)`);
  await em.execute(`create table ${table} (id text primary key, parent text references ${table}_parents (id))`);
  await em.execute(`insert into ${table}_parents values ('p')`);
});

afterAll(async () => {
  await db.fork().execute(`drop table if exists ${table}`);
  await db.fork().execute(`drop table if exists ${table}_parents`);
  await db.close();
});

describe('runPrepared', () => {
  it('writes and reads, the same statement many times', async () => {
    for (let i = 0; i < 7; i++) await runPrepared(db.fork(), insert, [`many-${i}`, 'p']);
    const [row] = await runPrepared<{ n: number }>(db.fork(), count, ['many-%']);
    expect(row!.n).toBe(7);
  });

  it("answers MikroORM's exceptions: a missing parent, a duplicate", async () => {
    await expect(runPrepared(db.fork(), insert, ['orphan', 'nobody'])).rejects.toBeInstanceOf(ForeignKeyConstraintViolationException);
    await runPrepared(db.fork(), insert, ['twice', 'p']);
    await expect(runPrepared(db.fork(), insert, ['twice', 'p'])).rejects.toBeInstanceOf(UniqueConstraintViolationException);
  });

  it('in a transaction, is part of it: rolled back with it', async () => {
    await expect(
      db.fork().transactional(async (em) => {
        await runPrepared(em, insert, ['rolled-back', 'p']);
        const [seen] = await runPrepared<{ n: number }>(em, count, ['rolled-back']);
        expect(seen!.n).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const [row] = await runPrepared<{ n: number }>(db.fork(), count, ['rolled-back']);
    expect(row!.n).toBe(0);
  });
});

describe('PreparedStatement', () => {
  it('takes values numbered $1, $2, … in order, each once', () => {
    expect(new PreparedStatement('ok', 'select $1, $2').withQuestionMarks).toBe('select ?, ?');
    expect(() => new PreparedStatement('skips', 'select $1, $3')).toThrow(/in order/);
    expect(() => new PreparedStatement('repeats', 'select $1, $1')).toThrow(/in order/);
  });
});
