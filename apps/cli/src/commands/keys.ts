import { Command } from '@commander-js/extra-typings';
import type { RouterOutputs } from '@lfk/client';
import { API_KEY_USAGE_DAYS, describeRefusals, KEY_STOP_WORDS, totalRefused } from '@lfk/vocabulary';
import { type CommandContext, inWorkspace, sessionApi } from '../command-context.ts';
import { usageError } from '../errors.ts';
import { parseDuration } from '../input/durations.ts';
import type { Api } from '../http/api.ts';
import { confirmOrStop } from '../terminal/prompts.ts';
import { collect, commandGroup, examples } from './options.ts';
import { findListed } from './pages.ts';
import { action, callAndShow, withApi } from './run-command.ts';
import { workspaceListCommand } from './workspace-list.ts';

type CreatedKey = RouterOutputs['apiKeys']['create'];
type ListedKey = RouterOutputs['apiKeys']['get'];

/** `--expires-in`, parsed when the command line is read: seconds, or undefined when not given. */
const expiresInOf = (flag: string | undefined) => (flag === undefined ? undefined : parseDuration('--expires-in', flag));

/** The API's `expires_at` that far from now, by this machine's clock (the server checks it against its own); nothing when not given. */
const expiresAtIn = (seconds: number | undefined) => (seconds === undefined ? {} : { expires_at: new Date(Date.now() + seconds * 1000).toISOString() });

/** `--days`: a whole number of days, read when the command line is (before anything is sent). */
function parseDays(value: string): number {
  if (!/^\d{1,3}$/.test(value)) throw usageError('invalid_days', `--days takes a number of days (1-${API_KEY_USAGE_DAYS.max}): ${JSON.stringify(value)}.`);
  return Number(value);
}

/** A key just made (created or rolled): the key alone on stdout, so `KEY=$(lfk keys …)` holds just the key. */
function printNewKey(ctx: CommandContext, key: CreatedKey, said: string): void {
  ctx.out.result(key, (key) => {
    const { style, errorStyle } = ctx.out;
    ctx.out.note(
      `${said} ${key.id}${key.name ? ` (${key.name})` : ''} in workspace ${key.workspace_id}` +
        `${key.expires_at ? `, expiring ${key.expires_at}` : ''}${key.allowed_ips ? `, usable from ${key.allowed_ips.join(', ')} only` : ''}:`,
    );
    ctx.out.line(style.bold(key.key));
    ctx.out.note(errorStyle.yellow('This is the only time the key is shown. Store it somewhere safe now; it cannot be shown again.'));
  });
}

const statusOf = (k: ListedKey) => {
  if (k.status === 'revoked') return KEY_STOP_WORDS[k.revoked_reason ?? 'revoked'].cli;
  // Rolled, in its grace: it still works, until it expires.
  return k.rolled_to ? 'active (replaced)' : 'active';
};

/** A stopped key expires no more: its expiry would only read as a date still to come. */
const expiryOf = (k: ListedKey) => (k.status === 'revoked' ? '-' : (k.expires_at ?? 'never'));

/** Where a key may be used from, as `get`, `update` and `whoami` say it. */
export const allowedOf = (k: { allowed_ips: string[] | null }) => (k.allowed_ips ? k.allowed_ips.join(', ') : 'any address');

/** Today's uses as a person reads them: what a revoked key still being tried looks like. */
function todayOf(k: ListedKey): string {
  const { requests, refused } = k.uses_today;
  if (k.status === 'revoked') return refused > 0 ? `still tried ${refused} time${refused === 1 ? '' : 's'}` : '';
  const parts = [`${requests}`, ...(refused > 0 ? [`${refused} refused`] : [])];
  return requests === 0 && refused === 0 ? '' : parts.join(', ');
}

const keysCreateCommand = () =>
  new Command('create')
    .description('Create an API key; it is printed once and cannot be shown again')
    .option('--name <name>', 'a name to tell the key apart by')
    .option('--description <text>', 'what the key is for')
    .option('--expires-in <duration>', 'the key stops working after this long: 1h to 365d (e.g. 30d, 12h, 2w)')
    .option('--allow-ip <address>', 'an IPv4 or IPv6 address or CIDR range the key may be used from; repeat for each (up to 20)', collect)
    .action(
      action(async (ctx, flags) => {
        // Flags are checked before anything is asked of the server.
        const expiresIn = expiresInOf(flags.expiresIn);
        const { api, workspaceId } = await inWorkspace(ctx);
        const key = await api.apiKeys.create.mutate({
          workspace_id: workspaceId,
          ...(flags.name !== undefined ? { name: flags.name } : {}),
          ...(flags.description !== undefined ? { description: flags.description } : {}),
          ...(flags.allowIp !== undefined ? { allowed_ips: flags.allowIp } : {}),
          ...expiresAtIn(expiresIn),
        });
        printNewKey(ctx, key, 'Created key');
      }),
    );

const keysRollCommand = () =>
  new Command('roll')
    .description('Replace an API key with a new one (same name), printed once; the old key works until the grace ends')
    .argument('<key_id>', 'the key to replace, e.g. key_…')
    .option('--grace <duration>', 'how long the old key keeps working: 0 (the default: it stops at once) up to 7d (e.g. 1h, 24h)', '0')
    .option('--expires-in <duration>', "the new key stops working after this long: 1h to 365d; by default, as long as the old key's lifetime (or never)")
    .option('-y, --yes', 'do not ask for confirmation when the old key stops at once')
    .action(
      action(async (ctx, keyId, flags) => {
        const graceSeconds = parseDuration('--grace', flags.grace);
        const expiresIn = expiresInOf(flags.expiresIn);
        const { workspaceId } = await inWorkspace(ctx);
        if (graceSeconds === 0 && !flags.yes) {
          await confirmOrStop(
            `Roll ${keyId}? The old key stops working at once; use --grace 24h to keep it working meanwhile.`,
            '--yes to roll without asking, or --grace to keep the old key working for a while',
            'Nothing was rolled.',
          );
        }
        // A client of its own after the question, so time spent answering is not spent from the timeout.
        const api = await sessionApi(ctx);
        const key = await api.apiKeys.roll.mutate({
          workspace_id: workspaceId,
          key_id: keyId,
          grace_seconds: graceSeconds,
          ...expiresAtIn(expiresIn),
        });
        printNewKey(ctx, key, graceSeconds === 0 ? `Rolled ${keyId} (revoked now) into` : `Rolled ${keyId} (works ${flags.grace} more) into`);
      }),
    );

const keysGetCommand = () =>
  new Command('get')
    .description('Show one API key: its state, expiry, and when and where from it was last used')
    .argument('<key_id>', 'the key, e.g. key_…')
    .action(
      callAndShow(
        inWorkspace,
        ({ api, workspaceId }, keyId) => api.apiKeys.get.query({ workspace_id: workspaceId, key_id: keyId }),
        (key, { out }) => {
          out.record([
            ['id', key.id],
            ['name', key.name ?? '-'],
            ['description', key.description ?? '-'],
            ['prefix', `${key.prefix}…`],
            ['status', statusOf(key), key.status === 'active' ? out.style.green : out.style.red],
            ['expires', expiryOf(key)],
            ['allowed from', allowedOf(key)],
            ['today', `${key.uses_today.requests} requests, ${key.uses_today.refused} refused`],
            ['revoked', key.revoked_at ?? '-'],
            ['rolled to', key.rolled_to ?? '-'],
            ['last used', key.last_used_at ?? 'never'],
            ['from address', key.last_used_ip ?? '-'],
            ['user agent', key.last_used_user_agent ?? '-'],
            ['created', key.created_at],
            ['created by', key.created_by ?? '(a deleted account)'],
          ]);
        },
      ),
    );

/** `--no-name` and the like: an option given as false clears the field (null); given, it is set; absent, kept. */
const clearable = <T>(value: T | false | undefined): T | null | undefined => (value === false ? null : value);

const keysUpdateCommand = () =>
  new Command('update')
    .description('Rename an API key, describe it, or change the addresses it may be used from')
    .argument('<key_id>', 'the key, e.g. key_…')
    .option('--name <name>', 'a new name')
    .option('--no-name', 'remove its name')
    .option('--description <text>', 'what the key is for')
    .option('--no-description', 'remove its description')
    .option('--allow-ip <address>', 'an address or CIDR range it may be used from; repeat for each: the list replaces the one it has', collect)
    .option('--any-ip', 'let it be used from any address (remove its allowlist)')
    .addHelpText(
      'after',
      examples([
        'lfk keys update key_… --name deploy --description "GitHub Actions, prod"',
        'lfk keys update key_… --allow-ip 203.0.113.7 --allow-ip 2001:db8::/32',
        'lfk keys update key_… --any-ip',
      ]),
    )
    .action(
      action(async (ctx, keyId, flags) => {
        if (flags.allowIp !== undefined && flags.anyIp) throw usageError('conflicting_flags', 'Give --allow-ip or --any-ip, not both.');
        const changes = {
          ...(flags.name !== undefined ? { name: clearable(flags.name) } : {}),
          ...(flags.description !== undefined ? { description: clearable(flags.description) } : {}),
          ...(flags.allowIp !== undefined ? { allowed_ips: flags.allowIp } : flags.anyIp ? { allowed_ips: null } : {}),
        };
        if (Object.keys(changes).length === 0) throw usageError('nothing_to_update', 'Say what to change: see lfk keys update --help.');
        const { api, workspaceId } = await inWorkspace(ctx);
        const key = await api.apiKeys.update.mutate({ workspace_id: workspaceId, key_id: keyId, ...changes });
        ctx.out.result(key, (key) => {
          ctx.out.line(`Updated ${key.id}${key.name ? ` (${key.name})` : ''}: usable from ${allowedOf(key)}.`);
        });
      }),
    );

const keysUsageCommand = () =>
  new Command('usage')
    .description('Requests that presented an API key per UTC day: accepted, and refused by why (written every few seconds)')
    .argument('<key_id>', 'the key, e.g. key_…')
    .option('--days <n>', `how many days back, today included (1-${API_KEY_USAGE_DAYS.max})`, parseDays, API_KEY_USAGE_DAYS.default)
    .action(
      callAndShow(
        inWorkspace,
        ({ api, workspaceId }, keyId, flags) => api.apiKeys.usage.query({ workspace_id: workspaceId, key_id: keyId, days: flags.days }),
        (usage, { out }) => {
          const most = Math.max(1, ...usage.data.map((d) => d.requests + totalRefused(d.refused)));
          const bar = (n: number) => Math.round((n / most) * 30);
          out.table(
            [
              { header: 'DATE', value: (d) => d.date },
              { header: 'REQUESTS', value: (d) => String(d.requests) },
              { header: 'REFUSED', value: (d) => String(totalRefused(d.refused)) },
              { header: 'WHY', value: (d) => describeRefusals(d.refused), optional: true, shrink: true },
              // A small chart for people (accepted █, refused ░); scripts read the numbers.
              {
                header: 'CHART',
                value: (d) => '█'.repeat(bar(d.requests)) + '░'.repeat(bar(d.requests + totalRefused(d.refused)) - bar(d.requests)),
                optional: true,
              },
            ],
            usage.data,
          );
          const refused = usage.data.reduce((sum, d) => sum + totalRefused(d.refused), 0);
          out.note(`${usage.data.reduce((sum, d) => sum + d.requests, 0)} requests and ${refused} refused in ${usage.data.length} days.`);
        },
      ),
    );

const keysListCommand = () =>
  workspaceListCommand(
    'List API keys, revoked ones included',
    (api) => api.apiKeys.list,
    [
      { header: 'ID', value: (k) => k.id },
      { header: 'NAME', value: (k) => k.name ?? '', shrink: true },
      { header: 'PREFIX', value: (k) => `${k.prefix}…`, optional: true },
      { header: 'STATUS', value: statusOf, paint: (text, k, style) => (k.status === 'active' ? style.green(text) : style.red(text)) },
      { header: 'EXPIRES', value: expiryOf, time: true, optional: true },
      { header: 'TODAY', value: todayOf, paint: (text, k, style) => (k.status === 'revoked' && text ? style.yellow(text) : text), optional: true },
      { header: 'LAST USED', value: (k) => k.last_used_at ?? 'never', time: true, optional: true },
      { header: 'FROM', value: (k) => k.last_used_ip ?? '', optional: true },
      { header: 'CREATED', value: (k) => k.created_at, time: true, optional: true },
    ],
    (workspaceId) => `No API keys in ${workspaceId}. Create one with 'lfk keys create --name <name>'.`,
  );

const keysRevokeCommand = () =>
  new Command('revoke')
    .description('Revoke an API key: it stops working at once')
    .argument('<key_id>', 'the key, e.g. key_…')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      withApi(inWorkspace, async ({ api: lookup, workspaceId, ...ctx }, keyId, flags) => {
        const key = await findKey(lookup, workspaceId, keyId);
        if (key?.status === 'revoked') {
          ctx.out.result(key, (key) => ctx.out.line(`${key.id} was already revoked.`));
          return;
        }
        // An id the list does not hold goes to the server as it is, which answers api_key_not_found.
        if (key && !flags.yes) {
          const named = `${key.id} (${key.name ? `${key.name}, ` : ''}${key.prefix}…)`;
          await confirmOrStop(`Revoke ${named}? Every request using it will fail from now on.`, '--yes to revoke without asking', 'Nothing was revoked.');
        }
        // A client of its own after the question, so time spent answering is not spent from the timeout.
        const api = await sessionApi(ctx);
        // Revoking twice is the same as once, so a lost answer may be asked again.
        await api.apiKeys.revoke.mutate({ workspace_id: workspaceId, key_id: keyId }, { context: { idempotent: true } });
        const revoked = await findKey(api, workspaceId, keyId);
        ctx.out.result(revoked, () => ctx.out.line(`Revoked ${keyId}.`));
      }),
    );

/** One key of the workspace, from its list (paged), or undefined when the list has no such id. */
function findKey(api: Api, workspaceId: string, keyId: string) {
  return findListed(
    (input) => api.apiKeys.list.query({ workspace_id: workspaceId, ...input }),
    (k) => k.id === keyId,
  );
}

export const keysCommand = () =>
  commandGroup(
    'keys',
    "Create, list, inspect, update, roll and revoke the workspace's API keys (owners)",
    [keysCreateCommand(), keysGetCommand(), keysListCommand(), keysRevokeCommand(), keysRollCommand(), keysUpdateCommand(), keysUsageCommand()],
    [
      'lfk keys create --name ci --expires-in 90d',
      'lfk keys create --name deploy --allow-ip 203.0.113.7 --allow-ip 2001:db8::/32',
      'lfk keys update key_… --name deploy-prod --any-ip',
      'lfk keys list',
      'lfk keys get key_…',
      'lfk keys roll key_… --grace 24h',
      'lfk keys usage key_… --days 7',
      'lfk keys revoke key_… --yes',
      'export LFK_API_KEY=$(lfk keys create --name agent)',
    ],
  );
