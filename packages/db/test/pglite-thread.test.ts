/**
 * Issue 39: the embedded database runs in a thread of its own (src/pglite-thread). If that thread
 * stops unasked (here: it runs out of memory), every statement, pending or later, fails as the
 * database being unreachable, never as a fault of the request, and `lost` tells the server to stop.
 * Closing it is not losing it.
 */
import { DriverException } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { databaseFailureOf } from '../src/database-failures.ts';
import { PGLITE_START_PARAMS } from '../src/pglite-settings.ts';
import { PgliteThread } from '../src/pglite-thread/thread.ts';

const start = (resourceLimits?: { maxOldGenerationSizeMb: number }) =>
  PgliteThread.start({ dataDir: 'memory://', startParams: [...PGLITE_START_PARAMS], ...(resourceLimits ? { resourceLimits } : {}) });

describe('the embedded database in a thread of its own', () => {
  it('answers statements, their errors with their PostgreSQL fields, and transactions', async () => {
    const thread = await start();
    try {
      expect((await thread.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      expect((await thread.query('select $1::int + 1 as two', [1])).rows).toEqual([{ two: 2 }]);
      await thread.query('create table t (id int primary key)');
      await expect(thread.query('insert into t values (1), (1)')).rejects.toMatchObject({ code: '23505', constraint: 't_pkey' });
      await expect(
        thread.transaction(async (tx) => {
          await tx.query('insert into t values (2)');
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await thread.transaction(async (tx) => void (await tx.query('insert into t values (3)')));
      expect((await thread.query('select id from t order by id')).rows).toEqual([{ id: 3 }]);
    } finally {
      await thread.close();
    }
  });

  it('stopped unasked (out of memory): the statement and every later one fail as the database unreachable, and it is lost', async () => {
    const thread = await start({ maxOldGenerationSizeMb: 48 });
    const lost = thread.lost.then((error) => error.message);
    // 200 rows of 1 MB each, read back as strings in the thread: more than its heap may hold.
    const failed = await thread.query("select repeat('x', 1000000) as x from generate_series(1, 200)").then(
      () => null,
      (error: Error) => error,
    );
    expect(failed).toMatchObject({ code: '57P01' });
    expect(failed!.message).toMatch(/^the embedded database stopped: /);
    // As MikroORM hands it on: its driver exceptions keep the code.
    expect(databaseFailureOf(new DriverException(failed!))).toBe('unreachable');
    expect(await lost).toBe(failed!.message);
    await expect(thread.query('select 1')).rejects.toMatchObject({ code: '57P01' });
    await thread.close();
  });

  it('closed, is not lost: statements after it are refused the same way', async () => {
    const thread = await start();
    let lost = false;
    void thread.lost.then(() => (lost = true));
    await thread.close();
    await expect(thread.query('select 1')).rejects.toMatchObject({ code: '57P01' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lost).toBe(false);
  });
});
