import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { type Problem, problemOf } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { Loading } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { TextField } from '../../components/text-field.tsx';
import { AuthLayout } from '../auth/auth-layout.tsx';

// `lfk login --web` opens this page and shows a code in the terminal, which the person types here
// (no link carries it, as in GitHub's device flow: a request someone else started and sent as a
// link would need a code the person never saw). The page then shows what asked, from where and
// when; on approval the CLI gets a session of its own. No password goes through the terminal.

const unknownCode = (problem: Problem) =>
  problem.code === 'device_login_not_found' ? 'This code is unknown, or it has expired. Start again on your device: run lfk login --web.' : null;

/**
 * `/device`: asks for the code, typed from the device's own screen. A code that came in the link
 * (`?code=`, an old CLI's or someone else's) is not filled in: the person is told to type theirs.
 */
function EnterCode({ fromLink, onCode }: { fromLink: boolean; onCode: (code: string) => void }) {
  const form = useForm({ defaultValues: { code: '' } });
  return (
    <AuthLayout title="Sign in a device" footer="The code is shown by the device that asked, e.g. by lfk login --web.">
      {fromLink && (
        <p role="note" className="alert alert-warning">
          This link came with a code. Type the code your own device shows instead: if you did not start a sign-in just now, stop here.
        </p>
      )}
      <form onSubmit={form.handleSubmit(({ code }) => onCode(code.trim()))} noValidate>
        <TextField
          form={form}
          name="code"
          label="Code shown on your device"
          autoComplete="off"
          autoCapitalize="characters"
          rules={{ required: 'Enter the code.' }}
        />
        <button type="submit">Continue</button>
      </form>
    </AuthLayout>
  );
}

/** What asked, from where and when, and Approve or Deny. */
function Decide({ code, onBack }: { code: string; onBack: () => void }) {
  const request = useQuery({ ...trpc.deviceLogins.get.queryOptions({ user_code: code }), retry: false });
  const approve = useMutation(trpc.deviceLogins.approve.mutationOptions());
  const deny = useMutation(trpc.deviceLogins.deny.mutationOptions());
  const footer = 'Only approve a request you started yourself, on a device you use.';
  if (request.isPending) {
    return (
      <AuthLayout title="Sign in a device" footer={footer}>
        <Loading what="the request" />
      </AuthLayout>
    );
  }
  if (request.isError) {
    return (
      <AuthLayout title="Sign in a device" footer={footer}>
        <ProblemAlert problem={problemOf(request.error)} explain={unknownCode} />
        <button type="button" className="secondary" onClick={onBack}>
          Type the code again
        </button>
      </AuthLayout>
    );
  }
  const decided = approve.data ?? deny.data;
  if (decided) {
    return (
      <AuthLayout title={decided.state === 'approved' ? 'Device signed in' : 'Request denied'} footer={footer}>
        <p role="status">
          {decided.state === 'approved'
            ? `${decided.device_name} is signed in as you. You can close this page and go back to it.`
            : `${decided.device_name} was not signed in. You can close this page.`}
        </p>
      </AuthLayout>
    );
  }
  const failure = approve.error ?? deny.error;
  const busy = approve.isPending || deny.isPending;
  const input = { user_code: code };
  return (
    <AuthLayout title="Sign in a device" footer={footer}>
      <p className="wrap-anywhere">
        <strong>{request.data.device_name}</strong> asks to sign in as you.
      </p>
      <dl className="facts">
        <div>
          <dt>Code</dt>
          <dd className="device-code">{request.data.user_code}</dd>
        </div>
        <div>
          <dt>Asked</dt>
          <dd>
            <Time iso={request.data.created_at} />
          </dd>
        </div>
        <div>
          <dt>From address</dt>
          <dd>{request.data.requested_ip ?? 'unknown'}</dd>
        </div>
        {request.data.requested_device && (
          <div>
            <dt>Program</dt>
            <dd className="wrap-anywhere">{request.data.requested_device}</dd>
          </div>
        )}
      </dl>
      <p>
        Approve only if you started this yourself, just now, on a device you use. The device will be able to do anything you can; you can sign it out from your
        account page.
      </p>
      {failure && <ProblemAlert problem={problemOf(failure)} explain={unknownCode} />}
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => approve.mutate(input)}>
          Approve
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => deny.mutate(input)}>
          Deny
        </button>
      </div>
    </AuthLayout>
  );
}

export function DevicePage() {
  const { code: fromLink } = useSearch({ from: '/device' });
  const [typed, setTyped] = useState<string | null>(null);
  return typed ? <Decide code={typed} onBack={() => setTyped(null)} /> : <EnterCode fromLink={!!fromLink} onCode={setTyped} />;
}
