import type { LfkSecondFactorChallenge } from '@lfk/client';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { problemOf } from '../../api/problems.ts';
import { trpcClient } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { AUTHENTICATOR_CODE_HINT, isAuthenticatorCode } from '../../components/authenticator-code.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';

type Method = 'code' | 'recovery_code';

interface Values {
  code: string;
  recovery_code: string;
}

interface SecondFactorStepProps {
  /** What the sign-in answered instead of a session: the challenge to complete, and with what. */
  pending: LfkSecondFactorChallenge;
  /** The session's cookie is set: on as after any sign-in. */
  onSignedIn: () => Promise<void>;
  /** Back to the password; with the error that ended this sign-in (it expired, or was completed elsewhere), if one did. */
  onStartOver: (why?: unknown) => void;
}

/**
 * The second step of signing in, in place of the first: a code from the authenticator app, or one
 * of the recovery codes. A wrong code may be tried again (the challenge stays); an expired
 * challenge goes back to the password.
 */
export function SecondFactorStep({ pending, onSignedIn, onStartOver }: SecondFactorStepProps) {
  const headingId = useId();
  const methods: Method[] = [
    ...(pending.factors.includes('totp') ? (['code'] as const) : []),
    ...(pending.factors.includes('recovery_code') ? (['recovery_code'] as const) : []),
  ];
  const [method, setMethod] = useState<Method | undefined>(methods[0]);
  // One field at a time: the other one's rules go with it.
  const form = useForm<Values>({ defaultValues: { code: '', recovery_code: '' }, shouldUnregister: true });
  const problem = useFormProblem(['code', 'recovery_code'], form.setError);
  const complete = useMutation({
    mutationFn: async (input: { code: string } | { recovery_code: string }) => {
      await trpcClient.auth.secondFactor.mutate({ challenge: pending.challenge, ...input });
    },
    onSuccess: onSignedIn,
    onError: (error) => {
      const { code } = problemOf(error);
      if (code === 'invalid_challenge') return onStartOver(error);
      if (code === 'invalid_second_factor' && method) {
        form.setError(method, {
          type: code,
          message:
            method === 'code'
              ? 'That code is not right, or it was already used. Type the code the app shows now.'
              : 'That recovery code is not right, or it was already used. Type another one.',
        });
        form.setFocus(method, { shouldSelect: true });
        return;
      }
      problem.report(error);
    },
  });
  // The field takes the focus as the step appears, and when the person switches to the other way.
  useEffect(() => {
    if (method) form.setFocus(method);
  }, [form, method]);
  const switchTo = (other: Method) => {
    problem.clear();
    form.clearErrors();
    setMethod(other);
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Two-factor authentication</h2>
      {method === 'code' && <p>Your password is right. Now type the 6-digit code your authenticator app shows for lfk.</p>}
      {method === 'recovery_code' && <p>Your password is right. Now type one of the recovery codes you saved when you set up two-factor authentication. Each works once.</p>}
      {method === undefined && (
        <p>Your password is right, but this account completes its sign-in with a passkey, which the dashboard cannot ask for yet.</p>
      )}
      {method && (
        <SubmitForm
          onSubmit={form.handleSubmit((values) => {
            problem.clear();
            complete.mutate(method === 'code' ? { code: values.code } : { recovery_code: values.recovery_code });
          })}
          problem={problem}
          submitLabel="Verify"
          pending={complete.isPending}
        >
          {method === 'code' ? (
            <TextField
              key="code"
              form={form}
              name="code"
              label="Authentication code"
              autoComplete="one-time-code"
              inputMode="numeric"
              rules={{ validate: (value) => isAuthenticatorCode(value) || AUTHENTICATOR_CODE_HINT }}
            />
          ) : (
            <TextField
              key="recovery_code"
              form={form}
              name="recovery_code"
              label="Recovery code"
              autoComplete="off"
              spellCheck={false}
              hint="Like xxxx-xxxx-xxxx."
              rules={{ validate: (value) => value.trim() !== '' || 'Type one of your recovery codes.' }}
            />
          )}
        </SubmitForm>
      )}
      <div className="actions">
        {method === 'code' && methods.includes('recovery_code') && (
          <button type="button" className="link" onClick={() => switchTo('recovery_code')}>
            Use a recovery code instead
          </button>
        )}
        {method === 'recovery_code' && methods.includes('code') && (
          <button type="button" className="link" onClick={() => switchTo('code')}>
            Use your authenticator app instead
          </button>
        )}
        <button type="button" className="link" onClick={() => onStartOver()}>
          Start over
        </button>
      </div>
    </section>
  );
}
