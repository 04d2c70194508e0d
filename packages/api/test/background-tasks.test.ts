/**
 * The runtime's one list of background tasks, folded from the kernel and every feature: the order
 * they stop in keeps shutdown's rules (apps/server/test/shutdown-order.test.ts checks the server's
 * around them), a failed stop leaves the rest to run, and only the queues can be woken.
 */
import { describe, expect, it } from 'vitest';
import { type BackgroundTask, TaskList } from '../src/infrastructure/background-task.ts';
import { testRuntime, testSettings } from './world.ts';

const QUIET_LOG = { info() {}, warn() {}, error() {} };

async function runtime() {
  return testRuntime(testSettings());
}

/** A task that records its stop in `stopped`, and fails it when `fails`. */
function recorded(name: string, stopped: string[], fails = false): BackgroundTask {
  return {
    name,
    start() {},
    async stop() {
      stopped.push(name);
      if (fails) throw new Error(`${name} could not stop`);
    },
  };
}

describe('the background tasks', () => {
  it(
    'stop as shutdown must: request work first, every task that may queue mail before the mailer, connections after their users, the outage watch ' + 'last',
    async () => {
      const { tasks } = await runtime();
      try {
        const stops = tasks.names().reverse();
        const before = (a: string, b: string) => expect(stops.indexOf(a), `${a} stops before ${b}`).toBeLessThan(stops.indexOf(b));
        expect(stops[0]).toBe('request work');
        expect(stops.at(-1)).toBe('database outage watch');
        for (const mailing of ['request work', 'key lifecycle sweep', 'webhook worker', 'retention sweep']) before(mailing, 'email sender');
        before('webhook worker', 'webhook connections');
        before('upload sweep', 'file storage');
        before('key lifecycle sweep', 'revocation listener');
        // Every feature's tasks are in the one list.
        for (const name of ['key-use buffer', 'form change listener', 'captcha connections', 'idempotency sweep', 'rate limit sweep'])
          expect(stops).toContain(name);
      } finally {
        await tasks.stop();
      }
    },
  );

  it('can be woken only where work is queued: the email sender and the webhook worker', async () => {
    const { tasks } = await runtime();
    try {
      expect(tasks.wakeable()).toEqual(['email sender', 'webhook worker']);
    } finally {
      await tasks.stop();
    }
  });

  it('wake reaches the task named, and a task that cannot be woken is left alone', () => {
    const woken: string[] = [];
    const queue: BackgroundTask = { name: 'queue', start() {}, wake: () => woken.push('queue'), stop() {} };
    const other: BackgroundTask = { name: 'other queue', start() {}, wake: () => woken.push('other queue'), stop() {} };
    const list = new TaskList([queue, other, { name: 'sweep', start() {}, stop() {} }], QUIET_LOG);
    list.wake('queue');
    list.wake('sweep');
    expect(woken).toEqual(['queue']);
  });

  it('still stops the rest when one fails, logs the step, and throws every failure at the end', async () => {
    const stopped: string[] = [];
    const logged: object[] = [];
    const log = { ...QUIET_LOG, error: (fields: object, message: string) => logged.push({ ...fields, message }) };
    const list = new TaskList([recorded('database', stopped), recorded('email sender', stopped, true), recorded('requests', stopped)], log);
    const failure = await list.stop().then(
      () => null,
      (error: unknown) => error,
    );
    expect(stopped).toEqual(['requests', 'email sender', 'database']);
    expect(failure).toBeInstanceOf(AggregateError);
    expect((failure as AggregateError).errors.map((error: Error) => error.message)).toEqual(['email sender could not stop']);
    expect(logged).toEqual([expect.objectContaining({ step: 'email sender', message: 'shutdown step failed' })]);
  });

  it('refuses two tasks of one name, which wake and the shutdown log could not tell apart', () => {
    expect(() => new TaskList([recorded('sweep', []), recorded('sweep', [])], QUIET_LOG)).toThrow("two background tasks are named 'sweep'");
  });
});
