import { zodResolver } from '@hookform/resolvers/zod';
import { loginInput } from '@lfk/api/schemas';
import { type LfkSecondFactorChallenge, secondFactorChallengeOf } from '@lfk/client';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { passkeysWorkHere, signWithPasskey } from '../../api/passkeys.ts';
import { type Problem, problemOf } from '../../api/problems.ts';
import { forgetEverything, safeNext } from '../../api/session.ts';
import { trpcClient } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { CurrentPasswordField } from '../../components/password-fields.tsx';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { SecondFactorStep } from './second-factor-step.tsx';

/** A passkey sign-in that waited too long, or signed another's challenge: the way on. */
function explainPasskeyProblem(problem: Problem) {
  return problem.code === 'invalid_challenge' || problem.code === 'invalid_second_factor' ? 'Try again: your browser asks your device anew.' : null;
}

export function SignInPage() {
  const navigate = useNavigate();
  // Checked here, where it is used: the router keeps a search value its validation dropped.
  const next = safeNext(useSearch({ from: '/sign-in' }).next);
  const form = useForm({ resolver: zodResolver(loginInput), defaultValues: { email: '', password: '' } });
  const problem = useFormProblem(['email', 'password'], form.setError);
  /** The password was right and the account has a second factor: the sign-in waits for it. */
  const [pending, setPending] = useState<LfkSecondFactorChallenge | null>(null);
  /** Counts the returns from the second step: each puts the focus in the password field, once it is back. */
  const [returns, setReturns] = useState(0);
  useEffect(() => {
    if (returns > 0) form.setFocus('password');
  }, [form, returns]);
  const signedIn = async () => {
    forgetEverything();
    await navigate({ to: next ?? '/' });
  };
  const signIn = useMutation({
    // The session travels in the HttpOnly cookie the answer sets; the token in its body is dropped
    // here, so it never reaches the cache.
    mutationFn: async (input: { email: string; password: string }) => {
      await trpcClient.auth.login.mutate(input);
    },
    onSuccess: signedIn,
    onError: (error) => {
      // `401 second_factor_required`: the password was right, and the account has a second factor.
      const challenge = secondFactorChallengeOf(error);
      if (!challenge) return problem.report(error);
      problem.clear();
      setPending(challenge);
    },
  });
  /** A sign-in with a passkey alone: any passkey of this site; the browser lets the person choose one. */
  const withPasskey = useMutation({
    mutationFn: async () => {
      const { options } = await trpcClient.auth.passkeyLoginOptions.mutate();
      const passkey = await signWithPasskey(options);
      await trpcClient.auth.passkeyLogin.mutate({ passkey });
    },
    onSuccess: signedIn,
  });
  const footer = (
    <>
      New to lfk?{' '}
      <Link to="/sign-up" search={next ? { next } : {}}>
        Create an account
      </Link>
    </>
  );
  if (pending) {
    return (
      <AuthLayout title="Sign in" footer={footer}>
        <SecondFactorStep
          pending={pending}
          onSignedIn={signedIn}
          onStartOver={(why) => {
            // Back to the password, the address kept: why (the sign-in expired) in the form's alert.
            setPending(null);
            form.setValue('password', '');
            if (why) problem.report(why);
            setReturns((n) => n + 1);
          }}
        />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Sign in" footer={footer}>
      <SubmitForm
        onSubmit={form.handleSubmit((input) => {
          withPasskey.reset();
          signIn.mutate(input);
        })}
        problem={problem}
        submitLabel="Sign in"
        pending={signIn.isPending}
      >
        <TextField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <CurrentPasswordField form={form} name="password" label="Password" />
      </SubmitForm>
      {passkeysWorkHere() && (
        <div className="passkey-sign-in">
          <p className="muted">Or, without your email and password:</p>
          <button
            type="button"
            className="secondary"
            disabled={withPasskey.isPending}
            onClick={() => {
              problem.clear();
              withPasskey.mutate();
            }}
          >
            Sign in with a passkey
          </button>
          <ProblemAlert problem={withPasskey.error ? problemOf(withPasskey.error) : null} explain={explainPasskeyProblem} />
        </div>
      )}
      <p>
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
    </AuthLayout>
  );
}
