import type { RouterOutputs } from '@lfk/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { problemOf } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { SendConfirmationLink } from '../../components/confirm-address.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { CurrentPasswordField, NewPasswordField } from '../../components/password-fields.tsx';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { Loaded } from '../../components/states.tsx';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { SecuritySection } from './security-section.tsx';

type ActiveSession = RouterOutputs['auth']['sessions']['data'][number];

/** The signed-in person's own settings: their password, their second factor, and where they are signed in. */
export function AccountPage() {
  usePageTitle('Your account');
  return (
    <>
      <h1>Your account</h1>
      <EmailAddress />
      <ChangePassword />
      <SecuritySection />
      <Sessions />
      <DeleteAccount />
    </>
  );
}

interface PasswordValues {
  current_password: string;
  new_password: string;
  again: string;
}

function ChangePassword() {
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);
  const form = useForm<PasswordValues>({ defaultValues: { current_password: '', new_password: '', again: '' } });
  const problem = useFormProblem(['current_password', 'new_password'], form.setError);
  const change = useMutation({
    ...trpc.auth.changePassword.mutationOptions(),
    onSuccess: async () => {
      form.reset();
      setDone(true);
      await queryClient.invalidateQueries(trpc.auth.sessions.pathFilter());
    },
    onError: problem.report,
  });
  return (
    <section aria-labelledby="password-title" className="card">
      <h2 id="password-title">Password</h2>
      <SubmitForm
        onSubmit={form.handleSubmit(({ current_password, new_password }) => {
          setDone(false);
          problem.clear();
          change.mutate({ current_password, new_password });
        })}
        problem={problem}
        submitLabel="Change password"
        pending={change.isPending}
      >
        <CurrentPasswordField form={form} name="current_password" label="Current password" />
        <NewPasswordField form={form} name="new_password" label="New password" consequence="Every other session of your account is signed out." />
        <TextField
          form={form}
          name="again"
          label="New password again"
          type="password"
          autoComplete="new-password"
          rules={{ validate: (value, values) => value === values.new_password || 'The two passwords differ.' }}
        />
      </SubmitForm>
      <p role="status">{done ? 'Password changed. Your other sessions were signed out.' : ''}</p>
    </section>
  );
}

function Sessions() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const sessions = useQuery(trpc.auth.sessions.queryOptions());
  const [said, setSaid] = useState('');
  const refresh = () => queryClient.invalidateQueries(trpc.auth.sessions.pathFilter());
  const revoke = useMutation({
    ...trpc.auth.revokeSession.mutationOptions(),
    onSuccess: async (_answer, { session_id }) => {
      // Ending this very session is signing out.
      if (sessions.data?.data.find((s) => s.id === session_id)?.current) {
        queryClient.clear();
        await navigate({ to: '/sign-in' });
        return;
      }
      setSaid('Signed that session out.');
      await refresh();
    },
  });
  const revokeOthers = useMutation({
    ...trpc.auth.revokeOtherSessions.mutationOptions(),
    onSuccess: async ({ revoked }) => {
      setSaid(revoked === 1 ? 'Signed 1 other session out.' : `Signed ${revoked} other sessions out.`);
      await refresh();
    },
  });
  const columns: Column<ActiveSession>[] = [
    { label: 'Last used', cell: (s) => (s.current ? <strong>This session</strong> : <Time iso={s.last_seen_at ?? s.created_at} />) },
    { label: 'From', cell: (s) => s.ip ?? <span className="muted">—</span> },
    // In words ("Chrome 131 on macOS"); the raw User-Agent on hover, for whoever needs it.
    { label: 'Browser or app', cell: (s) => (s.device ? <span title={s.user_agent ?? undefined}>{s.device}</span> : <span className="muted">—</span>) },
    { label: 'Signed in', cell: (s) => <Time iso={s.created_at} /> },
    {
      label: 'Actions',
      labelHidden: true,
      cell: (s) => (
        <button type="button" className="danger small" disabled={revoke.isPending} onClick={() => revoke.mutate({ session_id: s.id })}>
          {s.current ? 'Sign out' : 'Sign this out'}
        </button>
      ),
    },
  ];
  const error = revoke.error ?? revokeOthers.error;
  return (
    <section aria-labelledby="sessions-title" className="card">
      <h2 id="sessions-title">Where you are signed in</h2>
      <Loaded query={sessions} what="your sessions">
        {(page) => (
          <>
            <DataTable caption="Your sessions, newest first" columns={columns} rows={page.data} rowKey={(s) => s.id} />
            <div className="actions">
              <button
                type="button"
                className="secondary"
                disabled={revokeOthers.isPending || page.data.length < 2}
                onClick={() => {
                  setSaid('');
                  revokeOthers.mutate();
                }}
              >
                Sign out every other session
              </button>
            </div>
          </>
        )}
      </Loaded>
      <ProblemAlert problem={error ? problemOf(error) : null} />
      <p role="status">{said}</p>
    </section>
  );
}

/** The account's address, and a way to confirm it while it is not. */
function EmailAddress() {
  const session = useQuery(trpc.auth.session.queryOptions());
  const user = session.data?.user;
  if (!user) return null;
  return (
    <section aria-labelledby="email-title" className="card">
      <h2 id="email-title">Email address</h2>
      <p>
        {user.email} {user.email_verified ? <span className="badge badge-active">confirmed</span> : <span className="badge badge-pending">not confirmed</span>}
      </p>
      {!user.email_verified && (
        <>
          <p className="hint">
            Confirm it with the link emailed at sign-up: until then you cannot create API keys, add webhooks, set auto-replies or invite anyone; once confirmed,
            a form of your workspaces that notifies this address needs no verification of its own.
          </p>
          <SendConfirmationLink />
        </>
      )}
    </section>
  );
}

/** The danger zone: deleting one's own account, with the password. */
function DeleteAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const form = useForm<{ password: string }>({ defaultValues: { password: '' } });
  const problem = useFormProblem(['password'], form.setError);
  const remove = useMutation({
    ...trpc.auth.deleteAccount.mutationOptions(),
    onSuccess: async () => {
      queryClient.clear();
      await navigate({ to: '/account-deleted' });
    },
    onError: problem.report,
  });
  return (
    <section className="danger-zone" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete your account</h2>
      <p>
        Your sessions end and you leave every workspace. Workspaces where you are the only member are deleted with their keys, forms and submissions. If you are
        the last owner of a workspace with other members, make one of them an owner first.
      </p>
      {open ? (
        <SubmitForm
          onSubmit={form.handleSubmit(({ password }) => {
            problem.clear();
            remove.mutate({ password });
          })}
          problem={problem}
          submitLabel="Delete my account"
          danger
          pending={remove.isPending}
        >
          <CurrentPasswordField form={form} name="password" label="Your password, to confirm" />
        </SubmitForm>
      ) : (
        <button type="button" className="danger" onClick={() => setOpen(true)}>
          Delete account
        </button>
      )}
    </section>
  );
}
