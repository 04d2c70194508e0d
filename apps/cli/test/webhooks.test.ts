// lfk webhooks … and lfk listen, against the real server and a local receiver.
import { spawn } from 'node:child_process';
import { verifyWebhook } from '@lfk/client';
import { type Receiver, startReceiver, until } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LFK_BIN, newHome, owner, ownerKey, server, startWorld, stopWorld } from './harness.ts';

let receiver: Receiver;
beforeAll(async () => {
  // No automatic retry within the test: a failed delivery waits for the retry the test makes.
  await startWorld({ env: { LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, server: { webhooks: { retryDelaysMs: [3_600_000] } } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await stopWorld();
});

async function newForm(name: string): Promise<string> {
  const form = await owner.lfk(['forms', 'create', '--name', name, '--field', 'message:text', '--mode', 'api_key', '--json']);
  expect(form.code, form.stderr).toBe(0);
  return form.json.id;
}

describe('lfk webhooks', () => {
  it('creates an endpoint with a key (the secret once), tests it, and manages it', async () => {
    const { key } = await ownerKey('webhooks');
    const formId = await newForm('Hooked');
    const asKey = { env: { LFK_API_KEY: key } };

    const created = await owner.lfk(['webhooks', 'create', '--form', formId, '--url', receiver.url, '--description', 'CRM'], asKey);
    expect(created.code, created.stderr).toBe(0);
    const secret = /whsec_[A-Za-z0-9+/]+=*/.exec(created.stdout)![0];
    const id = /wh_[0-9a-z]{26}/.exec(created.stdout)![0];
    expect(created.stderr).toContain(`Added webhook ${id} to ${formId}.`);
    expect(created.stderr).toContain('only time the secret is shown');

    const tested = await owner.lfk(['webhooks', 'test', id, '--form', formId], asKey);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/result\s+succeeded/);
    const request = receiver.received.at(-1)!;
    expect(verifyWebhook(secret, request.headers, request.body)).toMatchObject({ type: 'webhook.test', data: { webhook: { id } } });

    const listed = await owner.lfk(['webhooks', 'list', '--form', formId, '--json'], asKey);
    expect(listed.json.data).toEqual([expect.objectContaining({ id, url: receiver.url, description: 'CRM', enabled: true })]);
    expect(listed.stdout).not.toContain('whsec_');

    const disabled = await owner.lfk(['webhooks', 'update', id, '--form', formId, '--disable', '--no-description', '--json'], asKey);
    expect(disabled.json).toMatchObject({ enabled: false, disabled_reason: 'manual', description: null });
    const neither = await owner.lfk(['webhooks', 'update', id, '--form', formId], asKey);
    expect(neither.code).toBe(2);
    const badEvent = await owner.lfk(['webhooks', 'update', id, '--form', formId, '--event', 'form.deleted'], asKey);
    expect(badEvent.code).toBe(2);

    const rotated = await owner.lfk(['webhooks', 'rotate-secret', id, '--form', formId, '--json'], asKey);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    // Revealing needs a session: an agent holding only the key is told so, the owner's session reads the new secret.
    const agent = await newHome({ LFK_API_KEY: key });
    const byKey = await agent.lfk(['webhooks', 'secret', id, '--form', formId]);
    expect(byKey.code).toBe(4);
    expect(byKey.stderr).toContain('session_required');
    const revealed = await owner.lfk(['webhooks', 'secret', id, '--form', formId]);
    expect(revealed.stdout).toBe(`${rotated.json.secret}\n`);

    const unconfirmed = await owner.lfk(['webhooks', 'delete', id, '--form', formId], asKey);
    expect(unconfirmed.code).toBe(2);
    const deleted = await owner.lfk(['webhooks', 'delete', id, '--form', formId, '--yes'], asKey);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(await server.sql('select id from webhook_endpoints where id = ?', [id])).toEqual([]);
  });

  it('shows the delivery log and retries a delivery (with a session)', async () => {
    const { key } = await ownerKey('deliveries');
    const formId = await newForm('Logged');
    const created = await owner.lfk(['webhooks', 'create', '--form', formId, '--url', receiver.url, '--json']);
    const id = created.json.id;
    receiver.answers.push({ status: 500, body: 'try later' });
    const submitted = await owner.lfk(['submissions', 'create', formId, '--data', 'message=hi', '--json'], { env: { LFK_API_KEY: key } });
    expect(submitted.code, submitted.stderr).toBe(0);
    const log = await until('a failed attempt', async () => {
      const shown = await owner.lfk(['webhooks', 'deliveries', id, '--form', formId, '--json']);
      return shown.json.data[0]?.attempts.length === 1 ? shown.json.data : undefined;
    });
    expect(log[0]).toMatchObject({ status: 'pending', attempts: [{ status_code: 500, response_excerpt: 'try later' }] });
    const human = await owner.lfk(['webhooks', 'deliveries', id, '--form', formId]);
    expect(human.stdout).toContain(log[0].id);
    expect(human.stdout).toContain('500 in ');

    const retried = await owner.lfk(['webhooks', 'retry', id, log[0].id, '--form', formId]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toContain(`Retrying ${log[0].id}`);
    await until('the retry to succeed', async () => {
      const shown = await owner.lfk(['webhooks', 'deliveries', id, '--form', formId, '--json']);
      return shown.json.data[0]?.status === 'succeeded';
    });
  });
});

describe('lfk webhooks create --signing ed25519', () => {
  it('shows the public key instead of a secret, and says there is no secret to reveal', async () => {
    const formId = await newForm('Keyed');
    const created = await owner.lfk(['webhooks', 'create', '--form', formId, '--url', receiver.url, '--signing', 'ed25519']);
    expect(created.code, created.stderr).toBe(0);
    const publicKey = /whpk_[A-Za-z0-9+/]+=*/.exec(created.stdout)![0];
    expect(created.stdout).not.toContain('whsec_');
    expect(created.stderr).toContain('it is not a secret, and cannot sign');
    const id = /wh_[0-9a-z]{26}/.exec(created.stdout)![0];
    const shown = await owner.lfk(['webhooks', 'get', id, '--form', formId]);
    expect(shown.stdout).toMatch(/signing\s+ed25519/);
    expect(shown.stdout).toContain(publicKey);
    const secret = await owner.lfk(['webhooks', 'secret', id, '--form', formId]);
    expect(secret.code).not.toBe(0);
    expect(secret.stderr).toContain('signs with Ed25519');
    const unknown = await owner.lfk(['webhooks', 'create', '--form', formId, '--url', receiver.url, '--signing', 'rsa']);
    expect(unknown.code).toBe(2);
  });
});

describe('lfk webhooks recover', () => {
  it('says on enabling how to send what an endpoint missed, and sends it with the original ids (with a session)', async () => {
    const { key } = await ownerKey('recover');
    const formId = await newForm('Recovered');
    const asKey = { env: { LFK_API_KEY: key } };
    const created = await owner.lfk(['webhooks', 'create', '--form', formId, '--url', `${receiver.url}?recover`, '--json']);
    const id = created.json.id;
    expect((await owner.lfk(['webhooks', 'update', id, '--form', formId, '--disable'])).code).toBe(0);
    const missed = await owner.lfk(['submissions', 'create', formId, '--data', 'message=while disabled', '--json'], asKey);
    expect(missed.code, missed.stderr).toBe(0);

    const enabled = await owner.lfk(['webhooks', 'update', id, '--form', formId, '--enable']);
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stderr).toMatch(
      new RegExp(
        'Events made while it was disabled \\(since \\S+\\) were not sent to it\\. ' +
          `With a session, 'lfk webhooks recover ${id} --form ${formId} --since \\S+ --until \\S+' sends them\\.`,
      ),
    );

    const counted = await owner.lfk(['webhooks', 'recover', id, '--form', formId, '--since', '1h', '--dry-run']);
    expect(counted.stdout).toBe(`1 event would be sent to ${id}.\n`);
    const recovered = await owner.lfk(['webhooks', 'recover', id, '--form', formId, '--since', '1h', '--json']);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(recovered.json).toEqual({ queued: 1, already_waiting: 0, next_since: null, dry_run: false });
    const request = await until('the recovered event', () => receiver.received.find((r) => r.url.endsWith('?recover')));
    expect(request.headers['webhook-id']).toBe(`msg_${missed.json.id.slice('sub_'.length)}`);

    // A key cannot resend submission values; a wrong time is a usage error.
    const byKey = await (await newHome({ LFK_API_KEY: key })).lfk(['webhooks', 'recover', id, '--form', formId, '--since', '1h']);
    expect(byKey.code).toBe(4);
    const badTime = await owner.lfk(['webhooks', 'recover', id, '--form', formId, '--since', 'yesterday']);
    expect(badTime.code).toBe(2);
    expect(badTime.stderr).toContain('--since takes a duration back from now');
  });
});

describe('a moved endpoint', () => {
  it('lists what waited for the previous URL as held, in words, and discards it (with a session)', async () => {
    const { key } = await ownerKey('moved');
    const formId = await newForm('Moved');
    const asKey = { env: { LFK_API_KEY: key } };
    const created = await owner.lfk(['webhooks', 'create', '--form', formId, '--url', `${receiver.url}?before`, '--json'], asKey);
    const id = created.json.id;
    receiver.answers.push({ status: 500 });
    await owner.lfk(['submissions', 'create', formId, '--data', 'message=before the move', '--json'], asKey);
    const [waiting] = await until('a failed attempt', async () => {
      const shown = await owner.lfk(['webhooks', 'deliveries', id, '--form', formId, '--json']);
      return shown.json.data[0]?.attempts.length === 1 ? shown.json.data : undefined;
    });

    const moved = await owner.lfk(['webhooks', 'update', id, '--form', formId, '--url', `${receiver.url}?after`], asKey);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toContain('Deliveries still waiting for the previous one are held');
    const human = await owner.lfk(['webhooks', 'deliveries', id, '--form', formId]);
    expect(human.stdout).toContain('held: for a previous URL (retry or discard)');

    // An agent holding only the key can neither read nor drop it.
    const agent = await newHome({ LFK_API_KEY: key });
    const byKey = await agent.lfk(['webhooks', 'discard', id, waiting.id, '--form', formId]);
    expect(byKey.code).toBe(4);
    expect(byKey.stderr).toContain('session_required');

    const discarded = await owner.lfk(['webhooks', 'discard', id, waiting.id, '--form', formId]);
    expect(discarded.code, discarded.stderr).toBe(0);
    expect(discarded.stdout).toBe(`Discarded ${waiting.id} (${waiting.event_id}): it will not be sent.\n`);
    const after = await owner.lfk(['webhooks', 'deliveries', id, '--form', formId, '--json']);
    expect(after.json.data[0]).toMatchObject({ id: waiting.id, status: 'discarded', url: `${receiver.url}?before` });
  });
});

describe('lfk listen', () => {
  it('forwards each new submission, signed, to a local URL until stopped', async () => {
    const { key } = await ownerKey('listen');
    const formId = await newForm('Listened');
    const submit = (message: string) => owner.lfk(['submissions', 'create', formId, '--data', `message=${message}`, '--json'], { env: { LFK_API_KEY: key } });
    await submit('before listening');
    const local = await startReceiver();
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const child = spawn(process.execPath, [LFK_BIN, 'listen', '--form', formId, '--forward-to', local.url, '--secret', secret, '--json'], {
      env: { PATH: process.env.PATH ?? '', HOME: owner.dir, XDG_CONFIG_HOME: `${owner.dir}/.config` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    try {
      await until('listen to be ready', () => stderr.includes('Ready.'));
      const during = [(await submit('first')).json.id, (await submit('second')).json.id];
      const received = await local.waitFor(2);
      const events = received.map((r) => verifyWebhook(secret, r.headers, r.body));
      expect(events.map((e) => (e.type === 'submission.created' ? e.data.submission.id : null))).toEqual(during);
      expect(events[0]).toMatchObject({
        type: 'submission.created',
        data: { form: { id: formId }, submission: { values: { message: 'first' }, via: 'api_key' } },
      });
      // The same webhook-id a real endpoint would get for that submission.
      expect(received[0]!.headers['webhook-id']).toBe(`msg_${during[0].slice(4)}`);
      await until('both forwards to be reported', () => stdout.split('\n').filter(Boolean).length === 2);
      expect(
        stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
      ).toEqual([
        expect.objectContaining({ event_id: `msg_${during[0].slice(4)}`, status_code: 200, error: null }),
        expect.objectContaining({ event_id: `msg_${during[1].slice(4)}`, status_code: 200, error: null }),
      ]);
    } finally {
      child.kill('SIGINT');
      await local.close();
    }
  });
});
