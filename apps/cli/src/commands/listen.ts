import { randomBytes } from 'node:crypto';
import { Command } from '@commander-js/extra-typings';
import type { RouterOutputs } from '@lfk/client';
import { PAGE_LIMIT } from '@lfk/vocabulary';
import { type CommandContext, sessionApi } from '../command-context.ts';
import { usageError } from '../errors.ts';
import { examples } from './options.ts';
import { action } from './run-command.ts';
import { keepWatching } from './keep-watching.ts';

type FormEvent = RouterOutputs['webhooks']['events']['data'][number];

/** A pause between two asks, each of which the server holds open until an event arrives (a long poll). */
const PAUSE_MS = 100;
/** How long the server holds one ask open, at most (its own bound is 20 s): well inside the request timeout. */
const WAIT_SECONDS = 20;
/** How long the local receiver has to answer one event. */
const FORWARD_TIMEOUT_MS = 10_000;

/** What forwarding one event came to. */
interface Forwarded {
  event_id: string;
  type: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

async function forward(url: string, sign: (id: string, at: Date, body: string) => string, event: FormEvent): Promise<Forwarded> {
  const body = JSON.stringify(event.payload);
  const at = new Date();
  const started = performance.now();
  const result = { event_id: event.id, type: event.type };
  try {
    const answer = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': sign(event.id, at, body),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await answer.body?.cancel();
    return { ...result, status_code: answer.status, error: null, duration_ms: Math.round(performance.now() - started) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    return { ...result, status_code: null, error: reason, duration_ms: Math.round(performance.now() - started) };
  }
}

function report(ctx: CommandContext, sent: Forwarded): void {
  if (ctx.out.json) {
    ctx.out.line(JSON.stringify(sent));
    return;
  }
  const { style } = ctx.out;
  const ok = sent.status_code !== null && sent.status_code >= 200 && sent.status_code < 300;
  const answer = sent.status_code !== null ? String(sent.status_code) : `failed: ${sent.error}`;
  ctx.out.line(`${new Date().toISOString()}  --> ${sent.type} [${sent.event_id}]  <-- ${(ok ? style.green : style.red)(answer)} (${sent.duration_ms} ms)`);
}

/**
 * Forwards the form's new events, as lfk's webhooks would send them and signed the same way, to
 * a URL on this machine, until Ctrl-C: a receiver is seen working before it is deployed.
 */
async function listen(ctx: CommandContext, formId: string, url: string, secret: string): Promise<never> {
  const { Webhook } = await import('standardwebhooks');
  const signer = new Webhook(secret);
  const sign = (id: string, at: Date, body: string) => signer.sign(id, at, body);
  // Each request gets the whole timeout: this command runs for as long as it is left to.
  const api = await sessionApi(ctx, 'request');
  // A long poll held open a little less than a request may take.
  const wait = Math.max(0, Math.min(WAIT_SECONDS, Math.floor(ctx.settings.timeoutMs / 1000) - 5));
  // Nothing from before the start is forwarded. The feed is read in commit order from its cursor,
  // so an event that commits late, or a submission released from spam, is never behind it.
  let cursor = (await api.webhooks.events.query({ form_id: formId })).cursor!;
  ctx.out.note(`Ready. Forwarding new submissions of ${formId} to ${url} (Ctrl-C to stop).`);
  ctx.out.note(`Signing secret for this session: ${ctx.out.errorStyle.bold(secret)}`);
  return keepWatching(ctx, PAUSE_MS, async () => {
    let page: Awaited<ReturnType<typeof api.webhooks.events.query>>;
    do {
      page = await api.webhooks.events.query({ form_id: formId, after: cursor, limit: PAGE_LIMIT.max, wait });
      for (const event of page.data) report(ctx, await forward(url, sign, event));
      cursor = page.cursor ?? cursor;
    } while (page.has_more);
  });
}

function localUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError('invalid_url', `--forward-to must be a URL, such as http://localhost:8000/hook (got ${JSON.stringify(value)}).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError('invalid_url', '--forward-to must be an http:// or https:// URL.');
  return url.href;
}

export const listenCommand = () =>
  new Command('listen')
    .description("Forward a form's new submissions, signed as webhooks, to a URL on this machine while it runs (needs a session)")
    .requiredOption('--form <form_id>', 'the form')
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:8000/hook')
    .option('--secret <whsec_…>', "sign with this secret (your endpoint's, say); by default a new one for this session, printed at the start")
    .addHelpText(
      'after',
      examples([
        'lfk listen --form form_… --forward-to http://localhost:8000/hook',
        'lfk listen --form form_… --forward-to http://localhost:8000/hook --secret "$(lfk webhooks secret wh_… --form form_…)"',
        'lfk listen --form form_… --forward-to http://localhost:8000/hook --json   # one line per event',
      ]),
    )
    .action(
      action(async (ctx, flags) => {
        const url = localUrl(flags.forwardTo);
        if (flags.secret !== undefined && !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(flags.secret)) {
          throw usageError('invalid_secret', '--secret must be a signing secret, whsec_…');
        }
        await listen(ctx, flags.form, url, flags.secret ?? `whsec_${randomBytes(32).toString('base64')}`);
      }),
    );
