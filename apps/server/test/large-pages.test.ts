/**
 * Lists whose rows can be large end a page at about PAGE_MAX_BYTES (1 MiB) of what the rows hold,
 * with a cursor to read on: submissions (values up to 64 KiB each), the events `lfk listen` follows,
 * an endpoint's delivery log (each with its payload), the workspace's forms (fields near the 1 MiB
 * body limit). An answer is built whole in memory and held for as long as its reader takes: 100
 * rows of those would be 6 to 100 MiB an answer. Read to the end, every row comes once, in order.
 */
import { PAGE_MAX_BYTES } from '@lfk/vocabulary';
import { type Account, createContactForm, createForm, useTestServer } from '@lfk/server/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { unreachableWebhook } from './inbox/fixtures.ts';

const t = useTestServer();
/** About 60 KB of values a row: a page of 100 of them would be 6 MB. */
const VALUE_BYTES = 60_000;
const ROWS = 40;

let owner: Account;
let formId: string;
/** Every submission's id, oldest first. */
let ids: string[];
/** Where the form's events feed stood before them. */
let start: string;

beforeAll(async () => {
  owner = await t.signup();
  formId = (await createContactForm(t, owner)).id;
  start = (await t.request('GET', `/v1/forms/${formId}/events`, { token: owner.token })).json.cursor;
  await t.sql(
    "insert into submissions (id, form_id, data, source, status, created_at) select 'sub_' || lpad(to_hex(g), 26, '0'), ?, " +
      "json_build_object('name', 'n' || lpad(g::text, 2, '0'), 'email', 'x@example.com', 'message', repeat('x', ?)), 'browser', 'ok', now() from " +
      'generate_series(1, ?) g',
    [formId, VALUE_BYTES, ROWS],
  );
  ids = (await t.sql<{ id: string }>('select id from submissions where form_id = ? order by id', [formId])).map((r) => r.id);
});

/** How many rows of `bytes` each a page holds: each starts before the page has reached PAGE_MAX_BYTES. */
const perPage = (bytes: number) => Math.ceil(PAGE_MAX_BYTES / bytes);

/** Every page of a list from its first, by `next_cursor`: the pages' lengths and the ids in order. */
async function readAll(path: string) {
  const lengths: number[] = [];
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await t.request('GET', `${path}?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: owner.token });
    expect(res.status, res.body).toBe(200);
    lengths.push(res.json.data.length);
    seen.push(...res.json.data.map((row: { id: string }) => row.id));
    cursor = res.json.next_cursor;
  } while (cursor !== null);
  return { lengths, seen };
}

describe('a page ends at about 1 MiB, with a cursor to read on', () => {
  it('submissions', async () => {
    const [largest] = await t.sql<{ bytes: number }>('select max(octet_length(data::text))::int as bytes from submissions where form_id = ?', [formId]);
    const { lengths, seen } = await readAll(`/v1/forms/${formId}/submissions`);
    expect(lengths[0]).toBe(perPage(largest!.bytes));
    expect(seen).toEqual([...ids].reverse());
  });

  it('the events lfk listen follows: has_more until the last', async () => {
    const pages: { length: number; has_more: boolean }[] = [];
    const seen: string[] = [];
    let after = start;
    for (;;) {
      // Held open until events come: on PostgreSQL another test's running transaction may hold them back a moment.
      const res = await t.request('GET', `/v1/forms/${formId}/events?after=${after}&limit=100&wait=20`, { token: owner.token });
      expect(res.status, res.body).toBe(200);
      pages.push({ length: res.json.data.length, has_more: res.json.has_more });
      seen.push(...res.json.data.map((event: { payload: { data: { submission: { id: string } } } }) => event.payload.data.submission.id));
      after = res.json.cursor;
      if (!res.json.has_more) break;
    }
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]!.length).toBeLessThan(ROWS);
    expect(pages.slice(0, -1).every((page) => page.has_more)).toBe(true);
    expect(seen).toEqual(ids);
    const caughtUp = await t.request('GET', `/v1/forms/${formId}/events?after=${after}`, { token: owner.token });
    expect(caughtUp.json).toEqual({ data: [], cursor: after, has_more: false });
  });

  it("an endpoint's delivery log", async () => {
    const webhookId = await unreachableWebhook(t, owner, formId);
    // A failed delivery of each submission (its payload as sent, ~60 KB): nothing the worker will take again.
    const at = 'to_char(created_at at time zone \'UTC\', \'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"\')';
    await t.sql(
      'insert into webhook_deliveries (id, endpoint_id, url, event_id, type, payload, status, attempts, attempt_count, next_attempt_at, created_at) ' +
        "select 'whd_' || substr(id, 5), ?, 'https://receiver.invalid/hook', 'msg_' || substr(id, 5), 'submission.created', " +
        `json_build_object('type', 'submission.created', 'timestamp', ${at}, 'data', json_build_object('form', json_build_object('id', form_id, ` +
        `'name', 'Contact'), ` +
        `'submission', json_build_object('id', id, 'form_id', form_id, 'created_at', ${at}, 'via', source, 'values', data)))::text, ` +
        "'failed', '[]', 9, null, now() from submissions where form_id = ?",
      [webhookId, formId],
    );
    const [largest] = await t.sql<{ bytes: number }>(
      'select max(octet_length(payload) + octet_length(attempts::text))::int as bytes from webhook_deliveries where endpoint_id = ?',
      [webhookId],
    );
    const { lengths, seen } = await readAll(`/v1/forms/${formId}/webhooks/${webhookId}/deliveries`);
    expect(lengths[0]).toBe(perPage(largest!.bytes));
    expect(seen).toEqual([...ids].reverse().map((id) => `whd_${id.slice(4)}`));
  });

  it("the workspace's forms", async () => {
    const team = await t.signup();
    // 30 select fields of 100 options of 200 characters: about 600 KB of fields a form.
    const schema = Array.from({ length: 30 }, (_, f) => ({
      name: `f${f}`,
      type: 'select',
      options: Array.from({ length: 100 }, (_, o) => `${o}`.padEnd(200, 'o')),
    }));
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await createForm(t, team.token, { name: `Big ${i}`, schema, workspace_id: team.workspaceId })).id);
    const lengths: number[] = [];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.request('GET', `/v1/workspaces/${team.workspaceId}/forms?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: team.token });
      expect(res.status, res.body).toBe(200);
      lengths.push(res.json.data.length);
      seen.push(...res.json.data.map((form: { id: string }) => form.id));
      cursor = res.json.next_cursor;
    } while (cursor !== null);
    // The second form starts at ~600 KB, under 1 MiB; the third would start past it.
    expect(lengths).toEqual([2, 1]);
    expect(seen).toEqual([...made].reverse());
  });
});
