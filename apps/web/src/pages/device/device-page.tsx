import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { type Problem, problemOf } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { Loading } from '../../components/states.tsx';
import { TextField } from '../../components/text-field.tsx';
import { AuthLayout } from '../auth/auth-layout.tsx';

// `lfk login --web` opens this page with the code it shows in the terminal. The person checks the
// two codes match (someone else's request, sent as a link, would show a code they never saw) and
// approves; the CLI then gets a session of its own. No password goes through the terminal.

const unknownCode = (problem: Problem) =>
  problem.code === 'device_login_not_found'
    ? 'This code is unknown, or it has expired. Start again on your device: run lfk login --web.'
    : null;

/** `/device`: asks for the code when the link did not carry one. */
function EnterCode() {
  const navigate = useNavigate();
  const form = useForm({ defaultValues: { code: '' } });
  return (
    <AuthLayout title="Sign in a device" footer="The code is shown by the device that asked, e.g. by lfk login --web.">
      <form onSubmit={form.handleSubmit(({ code }) => navigate({ to: '/device', search: { code: code.trim() } }))} noValidate>
        <TextField form={form} name="code" label="Code" autoComplete="off" autoCapitalize="characters" rules={{ required: 'Enter the code.' }} />
        <button type="submit">Continue</button>
      </form>
    </AuthLayout>
  );
}

/** `/device?code=…`: what asked, and Approve or Deny. */
function Decide({ code }: { code: string }) {
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
      <p>
        <strong>{request.data.device_name}</strong> asks to sign in as you.
      </p>
      <p>Check that your device shows this code:</p>
      <p className="device-code">{request.data.user_code}</p>
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
  const { code } = useSearch({ from: '/device' });
  return code ? <Decide code={code} /> : <EnterCode />;
}
