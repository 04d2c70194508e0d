import { zodResolver } from '@hookform/resolvers/zod';
import { loginInput } from '@lfk/api/schemas';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { forgetEverything, safeNext } from '../../api/session.ts';
import { trpcClient } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { AuthLayout } from './auth-layout.tsx';

export function SignInPage() {
  const navigate = useNavigate();
  // Checked here, where it is used: the router keeps a search value its validation dropped.
  const next = safeNext(useSearch({ from: '/sign-in' }).next);
  const form = useForm({ resolver: zodResolver(loginInput), defaultValues: { email: '', password: '' } });
  const problem = useFormProblem(['email', 'password'], form.setError);
  const signIn = useMutation({
    // The session travels in the HttpOnly cookie the answer sets; the token in its body is dropped
    // here, so it never reaches the cache.
    mutationFn: async (input: { email: string; password: string }) => {
      await trpcClient.auth.login.mutate(input);
    },
    onSuccess: async () => {
      forgetEverything();
      await navigate({ to: next ?? '/' });
    },
    onError: problem.report,
  });
  return (
    <AuthLayout
      title="Sign in"
      footer={
        <>
          New to lfk? <Link to="/sign-up" search={next ? { next } : {}}>Create an account</Link>
        </>
      }
    >
      <SubmitForm onSubmit={form.handleSubmit((input) => signIn.mutate(input))} problem={problem} submitLabel="Sign in" pending={signIn.isPending}>
        <TextField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <TextField form={form} name="password" label="Password" type="password" autoComplete="current-password" />
      </SubmitForm>
      <p>
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
    </AuthLayout>
  );
}
