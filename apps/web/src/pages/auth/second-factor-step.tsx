import type { LfkSecondFactorChallenge } from '@lfk/client';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { passkeysWorkHere, signWithPasskey } from '../../api/passkeys.ts';
import { problemOf } from '../../api/problems.ts';
import { trpcClient } from '../../api/trpc.ts';
import { AuthenticatorCodeField } from '../../components/authenticator-code-field.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';

type Method = 'code' | 'passkey' | 'recovery_code';

interface Values {
  code: string;
  recovery_code: string;
}

interface SecondFactorStepProps {
  /** What the sign-in answered instead of a session: the challenge to complete, and with what. */
  /** The sign-in waiting for its second factor: the challenge, and for an account with passkeys the options to sign with one. */
  pending: LfkSecondFactorChallenge;
  /** The session's cookie is set: on as after any sign-in. */
  onSignedIn: () => Promise<void>;
  /** Back to the password; with the error that ended this sign-in (it expired, or was completed elsewhere), if one did. */
  onStartOver: (why?: unknown) => void;
}

const SWITCH_LABEL: Record<Method, string> = {
  code: 'Use your authenticator app instead',
  passkey: 'Use your passkey instead',
  recovery_code: 'Use a recovery code instead',
};

/**
 * The second step of signing in, in place of the first: a code from the authenticator app, the
 * account's passkey (where this page can use one), or one of the recovery codes; the app's code
 * first when there is an app, else the passkey. A wrong code or a passkey not used may be tried
 * again (the challenge stays); an expired challenge goes back to the password.
 */
export function SecondFactorStep({ pending, onSignedIn, onStartOver }: SecondFactorStepProps) {
  const headingId = useId();
  const hasPasskey = pending.factors.includes('passkey') && pending.passkeyOptions !== null;
  const passkeyHere = hasPasskey && passkeysWorkHere();
  const methods: Method[] = [
    ...(pending.factors.includes('totp') ? (['code'] as const) : []),
    ...(passkeyHere ? (['passkey'] as const) : []),
    ...(pending.factors.includes('recovery_code') ? (['recovery_code'] as const) : []),
  ];
  const [method, setMethod] = useState<Method | undefined>(methods[0]);
  // One field at a time: the other one's rules go with it.
  const form = useForm<Values>({ defaultValues: { code: '', recovery_code: '' }, shouldUnregister: true });
  const problem = useFormProblem(['code', 'recovery_code'], form.setError);
  const passkeyButton = useRef<HTMLButtonElement>(null);
  const complete = useMutation({
    mutationFn: async (input: { code: string } | { recovery_code: string } | 'passkey') => {
      if (input !== 'passkey') {
        await trpcClient.auth.secondFactor.mutate({ challenge: pending.challenge, ...input });
        return;
      }
      const passkey = await signWithPasskey(pending.passkeyOptions ?? {});
      await trpcClient.auth.secondFactor.mutate({ challenge: pending.challenge, passkey });
    },
    onSuccess: onSignedIn,
    onError: (error) => {
      const { code } = problemOf(error);
      if (code === 'invalid_challenge') return onStartOver(error);
      if (code === 'invalid_second_factor' && (method === 'code' || method === 'recovery_code')) {
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
  // The field (or the passkey's button) takes the focus as the step appears, and when the person switches to another way.
  useEffect(() => {
    if (method === 'passkey') passkeyButton.current?.focus();
    else if (method) form.setFocus(method);
  }, [form, method]);
  const switchTo = (other: Method) => {
    problem.clear();
    complete.reset();
    form.clearErrors();
    setMethod(other);
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Two-factor authentication</h2>
      {method === 'code' && <p>Your password is right. Now type the 6-digit code your authenticator app shows for lfk.</p>}
      {method === 'passkey' && (
        <p>Your password is right. Now use your passkey: your browser asks your device for it (your fingerprint, face or PIN, or your security key).</p>
      )}
      {method === 'recovery_code' && (
        <p>Your password is right. Now type one of the recovery codes you saved when you set up two-factor authentication. Each works once.</p>
      )}
      {hasPasskey && !passkeyHere && (
        <p className="notice">
          Your passkey cannot be used on this page: passkeys need the dashboard at a domain name (such as localhost), not an IP address.
          {method === undefined ? ' Open it at the address the server is configured with, then sign in again.' : null}
        </p>
      )}
      {method === undefined && !hasPasskey && <p>Your password is right, but this account has no second factor this page can ask for.</p>}
      {method === 'passkey' && (
        <>
          <ProblemAlert problem={problem.problem} />
          <div className="actions">
            <button
              ref={passkeyButton}
              type="button"
              disabled={complete.isPending}
              onClick={() => {
                problem.clear();
                complete.mutate('passkey');
              }}
            >
              Use your passkey
            </button>
          </div>
        </>
      )}
      {(method === 'code' || method === 'recovery_code') && (
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
            <AuthenticatorCodeField key="code" form={form} name="code" />
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
        {methods
          .filter((other) => other !== method)
          .map((other) => (
            <button key={other} type="button" className="link" onClick={() => switchTo(other)}>
              {SWITCH_LABEL[other]}
            </button>
          ))}
        <button type="button" className="link" onClick={() => onStartOver()}>
          Start over
        </button>
      </div>
    </section>
  );
}
