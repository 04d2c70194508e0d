import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { passkeysWorkHere, signWithPasskey } from '../api/passkeys.ts';
import { problemOf } from '../api/problems.ts';
import { onReauthenticationNeeded } from '../api/reauthentication.ts';
import { trpc, trpcClient } from '../api/trpc.ts';
import { AuthenticatorCodeField } from './authenticator-code-field.tsx';
import { Dialog } from './dialog.tsx';
import { useFormProblem } from './form-problem.ts';
import { CurrentPasswordField } from './password-fields.tsx';
import { ProblemAlert } from './problem-alert.tsx';
import { SubmitForm } from './submit-form.tsx';

/**
 * Sudo mode's question, asked in place (api/reauthentication.ts): mounted once for the whole app,
 * opened when a call is refused until its person confirms who they are. Confirmed, the call goes
 * again by itself; cancelled, it fails and its page says so.
 */
export function ReauthenticateDialog() {
  const [open, setOpen] = useState(false);
  /** Answers the call waiting on the question: once, whichever way the dialog ends. */
  const answer = useRef<((confirmed: boolean) => void) | null>(null);
  useEffect(
    () =>
      onReauthenticationNeeded(
        () =>
          new Promise<boolean>((resolve) => {
            answer.current = resolve;
            setOpen(true);
          }),
      ),
    [],
  );
  const finish = (confirmed: boolean) => {
    const resolve = answer.current;
    answer.current = null;
    setOpen(false);
    resolve?.(confirmed);
  };
  return (
    <Dialog open={open} onClose={() => finish(false)} title="Confirm it's you">
      <ConfirmItsYou onConfirmed={() => finish(true)} onCancel={() => finish(false)} />
    </Dialog>
  );
}

interface Values {
  password: string;
  code: string;
}

function ConfirmItsYou({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  // Whether a code is an option: only for an account with an authenticator app; a passkey, for one with passkeys, where this page can use them.
  const status = useQuery(trpc.twoFactor.status.queryOptions());
  const hasApp = status.data?.totp.enabled === true;
  const hasPasskey = (status.data?.passkeys.length ?? 0) > 0 && passkeysWorkHere();
  const [method, setMethod] = useState<'password' | 'code'>('password');
  // One field at a time: the other one's rules go with it.
  const form = useForm<Values>({ defaultValues: { password: '', code: '' }, shouldUnregister: true });
  const problem = useFormProblem(['password', 'code'], form.setError, { invalid_second_factor: 'code' });
  const confirm = useMutation({
    mutationFn: (input: { password: string } | { code: string }) => trpcClient.auth.reauthenticate.mutate(input),
    onSuccess: onConfirmed,
    onError: (error) => {
      problem.report(error);
      form.setFocus(method, { shouldSelect: true });
    },
  });
  /** A passkey instead, in one click: the options for this account's passkeys, the device signs, the server checks. */
  const withPasskey = useMutation({
    mutationFn: async () => {
      const { options } = await trpcClient.auth.reauthenticateOptions.mutate();
      const passkey = await signWithPasskey(options);
      await trpcClient.auth.reauthenticate.mutate({ passkey });
    },
    onSuccess: onConfirmed,
  });
  // The field takes the focus once the dialog has opened (its opening focuses the dialog's first button).
  useEffect(() => {
    const frame = requestAnimationFrame(() => form.setFocus(method));
    return () => cancelAnimationFrame(frame);
  }, [form, method]);
  const switchTo = (other: 'password' | 'code') => {
    problem.clear();
    withPasskey.reset();
    form.clearErrors();
    setMethod(other);
  };
  return (
    <>
      <p>
        This needs you to have signed in in the last few minutes. Confirm it's you
        {method === 'password' ? ' with your password' : ' with a code from your authenticator app'}
        {hasPasskey ? ' or a passkey' : ''}, and what you asked for goes ahead.
      </p>
      <SubmitForm
        onSubmit={form.handleSubmit((values) => {
          problem.clear();
          withPasskey.reset();
          confirm.mutate(method === 'password' ? { password: values.password } : { code: values.code });
        })}
        problem={problem}
        submitLabel="Confirm"
        pending={confirm.isPending}
        onCancel={onCancel}
      >
        {method === 'password' ? (
          <CurrentPasswordField key="password" form={form} name="password" label="Password" rules={{ required: 'Type your password.' }} />
        ) : (
          <AuthenticatorCodeField key="code" form={form} name="code" hint="The 6-digit code your authenticator app shows for lfk." />
        )}
      </SubmitForm>
      {hasPasskey && (
        <div className="actions">
          <button
            type="button"
            className="secondary"
            disabled={withPasskey.isPending || confirm.isPending}
            onClick={() => {
              problem.clear();
              form.clearErrors();
              withPasskey.mutate();
            }}
          >
            Use a passkey
          </button>
        </div>
      )}
      <ProblemAlert problem={withPasskey.error ? problemOf(withPasskey.error) : null} />
      {hasApp && (
        <p>
          <button type="button" className="link" onClick={() => switchTo(method === 'password' ? 'code' : 'password')}>
            {method === 'password' ? 'Use a code from your authenticator app instead' : 'Use your password instead'}
          </button>
        </p>
      )}
    </>
  );
}
