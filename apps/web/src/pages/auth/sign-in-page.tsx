import { zodResolver } from '@hookform/resolvers/zod';
import { loginInput } from '@lfk/api/schemas';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { forgetEverything } from '../../api/session.ts';
import { trpcClient } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { TextField } from '../../components/text-field.tsx';
import { AuthLayout } from './auth-layout.tsx';

export function SignInPage() {
  const navigate = useNavigate();
  const { next } = useSearch({ from: '/sign-in' });
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
      // `next` was checked to be a path of this app when the page was opened.
      await navigate({ to: next ?? '/' });
    },
    onError: problem.report,
  });
  return (
    <AuthLayout
      title="Sign in"
      footer={
        <>
          New to lfk? <Link to="/sign-up">Create an account</Link>
        </>
      }
    >
      <form onSubmit={form.handleSubmit((input) => signIn.mutate(input))} noValidate>
        <TextField label="Email" type="email" autoComplete="email" registration={form.register('email')} error={form.formState.errors.email} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          registration={form.register('password')}
          error={form.formState.errors.password}
        />
        <ProblemAlert problem={problem.problem} unplacedDetails={problem.unplaced} />
        <button type="submit" disabled={signIn.isPending}>
          Sign in
        </button>
      </form>
    </AuthLayout>
  );
}
