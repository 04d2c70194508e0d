import { performance } from 'node:perf_hooks';
import { createLfkClient } from '@lfk/client';
import { judgeContent } from '@lfk/spam-filter';
import { CONTACT_FORM_FIELDS, type CorpusMail, EVALUATION_SETS, readSets } from '@lfk/spam-filter/corpus';
import { compare, type LoadSettings, percentile } from '../load.ts';
import type { BenchServer } from '../processes.ts';
import type { Row } from '../report.ts';
import { type Seed, seed } from '../seed.ts';
import { bearer } from './key-verification.ts';

/** Marks a workspace makes before its own kind of spam is measured again (issue 54). */
const MARKS = 200;
/** Submissions sent at once while the evaluation set goes through the route. */
const AT_ONCE = 8;

type Values = CorpusMail['values'];

/**
 * Outreach of one kind (SEO and crypto), written from parts with a seeded generator: polite, few
 * links, the sort the shipped model lets through and a workspace marks by hand.
 */
export function outreach(count: number, seedNumber: number): Values[] {
  let state = seedNumber;
  const pick = <T>(list: readonly T[]): T => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return list[state % list.length]!;
  };
  const greetings = ['Hello', 'Hi there', 'Good morning', 'Dear site owner', 'Hey'];
  const offers = [
    'we could get your site onto the first page of Google with our SEO backlinks package',
    'our agency builds high authority backlinks and guest posts for sites like yours',
    'we help businesses accept crypto payments and grow with token marketing',
    'our SEO audit found ranking issues we can fix this month',
    'we run crypto airdrop campaigns and DeFi listings for growing brands',
  ];
  const closes = ['Happy to talk this week.', 'Shall I send a short proposal?', 'Reply and I will share our rates.', 'Let me know a good time.'];
  const names = ['Tom', 'Priya', 'Alex', 'Maria', 'Sam', 'Chen', 'Olga'];
  return Array.from({ length: count }, (_, i) => {
    const name = pick(names);
    const agency = `${pick(['rank', 'growth', 'seo', 'chain', 'token'])}${pick(['boost', 'labs', 'works', 'hub'])}${i}`;
    return {
      email: `${name.toLowerCase()}@${agency}.example`,
      subject: pick(['Quick question about your website', 'Partnership', 'Your site', 'Growth idea', 'Proposal']),
      message: `${pick(greetings)}, I had a look at your site and ${pick(offers)}. ${pick(closes)} Regards, ${name}`,
    };
  });
}

/** The share of `ids` the form filed as spam. */
async function spamShare(client: ReturnType<typeof createLfkClient>, formId: string, ids: readonly string[]): Promise<number> {
  const spam = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.submissions.list.query({ form_id: formId, status: 'spam', limit: 100, ...(cursor ? { cursor } : {}) });
    for (const s of page.data) spam.add(s.id);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return ids.filter((id) => spam.has(id)).length / Math.max(ids.length, 1);
}

/** Sends `values` to the form with a key, `AT_ONCE` at a time; answers the submissions' ids in order. */
async function sendAll(url: string, formId: string, key: string, values: readonly Values[]): Promise<string[]> {
  const ids: string[] = new Array(values.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < values.length; i = next++) {
      const post = (body: Values) =>
        fetch(`${url}/v1/forms/${formId}/submissions`, {
          method: 'POST',
          headers: { ...bearer(key), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      let res = await post(values[i]!);
      // An old From address lfk's email field refuses: sent without it, as a person would leave it out.
      if (res.status === 422 && /"path":"email"/.test(await res.clone().text())) res = await post({ ...values[i]!, email: '' });
      if (res.status !== 201) throw new Error(`submission ${i} answered ${res.status}: ${await res.text()}`);
      ids[i] = ((await res.json()) as { id: string }).id;
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  return ids;
}

/**
 * Scenarios 22 and 23: the content filter. 22 sends SpamAssassin's 2003 sets (never trained on)
 * through `POST …/submissions` to a contact form at its default threshold and counts what lands in
 * spam; times the filter itself on each of them (in this process, the server's code); and compares
 * a keyed submission's throughput with the filter on and off. 23 has one workspace mark `MARKS` of
 * its own kind of spam, then sends fresh ones of that kind to it and to another workspace.
 */
export async function contentFilter(server: BenchServer, seeded: Seed, settings: LoadSettings, notes: string[]): Promise<Row[]> {
  const engine = 'PGlite';
  const key = seeded.keys[0]!.key;
  const withKey = createLfkClient({ baseUrl: server.url, apiKey: key });
  const owner = createLfkClient({ baseUrl: server.url, sessionToken: seeded.sessionToken });
  const schema = CONTACT_FORM_FIELDS.map((f) => ({ ...f }));
  const rows: Row[] = [];

  const evaluation = await readSets(EVALUATION_SETS);
  const form = await withKey.forms.create.mutate({ name: 'Contact (SpamAssassin 2003)', schema, submission_mode: 'api_key' });
  const ids = await sendAll(
    server.url,
    form.id,
    key,
    evaluation.map((m) => m.values),
  );
  const caught = await spamShare(
    owner,
    form.id,
    ids.filter((_, i) => evaluation[i]!.spam),
  );
  const misfiled = await spamShare(
    owner,
    form.id,
    ids.filter((_, i) => !evaluation[i]!.spam),
  );
  const threshold = form.spam_filter.threshold;
  rows.push(
    {
      scenario: `22 · content filter: % of SpamAssassin 2003 spam caught (threshold ${threshold})`,
      engine,
      ratio: caught * 100,
      target: '≥ 95',
      met: caught >= 0.95,
    },
    { scenario: '22 · content filter: % of SpamAssassin 2003 ham misfiled as spam', engine, ratio: misfiled * 100, target: '≤ 0.5', met: misfiled <= 0.005 },
  );

  // The filter's own cost, per submission, on the same mails (the first pass warms it up).
  const times: number[] = [];
  for (const pass of [0, 1]) {
    for (const mail of evaluation) {
      const started = performance.now();
      judgeContent(CONTACT_FORM_FIELDS, mail.values);
      if (pass === 1) times.push(performance.now() - started);
    }
  }
  times.sort((a, b) => a - b);
  const p99 = percentile(times, 0.99);
  rows.push({
    scenario: '22 · content filter: time per submission (ms, on one core)',
    engine,
    p50Ms: percentile(times, 0.5),
    p99Ms: p99,
    target: 'p99 < 1 ms',
    met: p99 < 1,
  });

  // A keyed submission with the filter on, against the same form with it off.
  const quiet = { email: 'buyer@example.org', message: 'one more order, the blue one please' };
  const on = await withKey.forms.create.mutate({ name: 'Orders, filtered', schema, submission_mode: 'api_key' });
  const off = await withKey.forms.create.mutate({ name: 'Orders, unfiltered', schema, submission_mode: 'api_key', spam_filter: { enabled: false } });
  const side = (formId: string) => ({
    url: server.url,
    load: { method: 'POST' as const, path: `/v1/forms/${formId}/submissions`, headers: bearer(key), body: JSON.stringify(quiet), expect: 201 },
    cpuSeconds: () => server.cpuSeconds(),
  });
  const throughput = await compare(side(on.id), side(off.id), settings);
  rows.push({
    scenario: '22 · keyed submission with the content filter ÷ without',
    engine,
    ...throughput.subject,
    ratio: throughput.ratio,
    ratioRange: throughput.ratioRange,
    target: '≥ 0.90',
    met: throughput.ratio >= 0.9,
  });
  notes.push(
    `Scenario 22 (${engine}): ${evaluation.length} mails of SpamAssassin's 2003 sets sent as submissions to a contact form (email, subject, message); ` +
      `${(caught * 100).toFixed(2)} % of the spam filed as spam, ${(misfiled * 100).toFixed(2)} % of the ham; the filter alone took ` +
      `${percentile(times, 0.5).toFixed(3)} ms at the median and ${p99.toFixed(3)} ms at p99 per submission.`,
  );

  // 23. One workspace marks its own kind of spam; another does not.
  const ours = await withKey.forms.create.mutate({ name: 'Contact (marking)', schema, submission_mode: 'api_key' });
  const marked = await sendAll(server.url, ours.id, key, outreach(MARKS, 1));
  for (const id of marked) await owner.submissions.markSpam.mutate({ form_id: ours.id, submission_id: id });
  const fresh = outreach(200, 2);
  const other = await seed(server, 1);
  const otherClient = createLfkClient({ baseUrl: server.url, sessionToken: other.sessionToken });
  const theirs = await createLfkClient({ baseUrl: server.url, apiKey: other.keys[0]!.key }).forms.create.mutate({
    name: 'Contact (not marking)',
    schema,
    submission_mode: 'api_key',
  });
  const oursAfter = await spamShare(owner, ours.id, await sendAll(server.url, ours.id, key, fresh));
  const theirsAfter = await spamShare(otherClient, theirs.id, await sendAll(server.url, theirs.id, other.keys[0]!.key, fresh));
  // What the shipped model alone makes of the same fresh ones.
  const before = fresh.filter((v) => judgeContent(CONTACT_FORM_FIELDS, v).score > threshold).length / fresh.length;
  rows.push(
    { scenario: `23 · % of a workspace's own kind of spam caught, before ${MARKS} marks (the shipped model)`, engine, ratio: before * 100 },
    {
      scenario: `23 · % of the same kind caught in the workspace after its ${MARKS} marks`,
      engine,
      ratio: oursAfter * 100,
      target: '> before',
      met: oursAfter > before,
    },
    {
      scenario: '23 · % of the same kind caught in another workspace (unchanged)',
      engine,
      ratio: theirsAfter * 100,
      target: '= before',
      met: Math.abs(theirsAfter - before) < 1e-9,
    },
  );
  return rows;
}
