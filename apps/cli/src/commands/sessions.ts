import { Command } from '@commander-js/extra-typings';
import { sessionApi, signedIn } from '../command-context.ts';
import { usageError } from '../errors.ts';
import { commandGroup } from './options.ts';
import { action, callAndShow } from './run-command.ts';

const sessionsListCommand = () =>
  new Command('list').description('Your sessions that still work, newest first: when and where each was last used (* marks this one)').action(
    callAndShow(
      signedIn,
      ({ api }) => api.auth.sessions.query(),
      (page, { out }) =>
        out.table(
          [
            { header: 'SESSION', value: (s) => `${s.current ? '* ' : '  '}${s.id}` },
            { header: 'LAST SEEN', value: (s) => s.last_seen_at ?? s.created_at, time: true },
            { header: 'FROM', value: (s) => s.ip ?? '' },
            { header: 'DEVICE', value: (s) => s.device ?? '', shrink: true, optional: true },
            { header: 'SIGNED IN', value: (s) => s.created_at, time: true, optional: true },
          ],
          page.data,
        ),
    ),
  );

const sessionsRevokeCommand = () =>
  new Command('revoke')
    .description('Sign one of your sessions out, or every other one with --others')
    .argument('[session_id]', 'the session, e.g. ses_… (see lfk sessions list)')
    .option('--others', 'every session of yours but this one')
    .action(
      action(async (ctx, sessionId, flags) => {
        if ((sessionId === undefined) === !flags.others) throw usageError('conflicting_flags', 'Name a session to sign out, or pass --others: one of the two.');
        const api = await sessionApi(ctx);
        if (flags.others) {
          const { revoked } = await api.auth.revokeOtherSessions.mutate();
          return ctx.out.result({ revoked }, () => ctx.out.line(`Signed out ${revoked} other session${revoked === 1 ? '' : 's'}.`));
        }
        await api.auth.revokeSession.mutate({ session_id: sessionId! });
        ctx.out.result({ id: sessionId, revoked: true }, () => ctx.out.line(`Signed out ${sessionId}.`));
      }),
    );

export const sessionsCommand = () =>
  commandGroup(
    'sessions',
    'See where you are signed in, and sign sessions out',
    [sessionsListCommand(), sessionsRevokeCommand()],
    ['lfk sessions list', 'lfk sessions revoke ses_…', 'lfk sessions revoke --others'],
  );
