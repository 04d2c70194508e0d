import { zodResolver } from '@hookform/resolvers/zod';
import { signupInput } from '@lfk/api/schemas';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { forgetEverything, safeNext } from '../../api/session.ts';
import { trpcClient } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { NewPasswordField } from '../../components/password-fields.tsx';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { AuthLayout } from './auth-layout.tsx';

interface SignUp {
  name?: string | undefined;
  email: string;
  password: string;
}

export function SignUpPage() {
  const navigate = useNavigate();
  // From an invitation: its address filled in, and back to it once signed up.
  const search = useSearch({ from: '/sign-up' });
  // Checked here, where it is used: the router keeps a search value its validation dropped.
  const next = safeNext(search.next);
  const email = typeof search.email === 'string' ? search.email : undefined;
  const form = useForm({ resolver: zodResolver(signupInput), defaultValues: { name: undefined, email: email ?? '', password: '' } });
  const problem = useFormProblem(['name', 'email', 'password'], form.setError, { email_taken: 'email' });
  const signUp = useMutation({
    // As at sign-in: the cookie carries the session, the token in the body is never kept.
    mutationFn: async (input: SignUp) => {
      const { workspace } = await trpcClient.auth.signup.mutate(input);
      return workspace.id;
    },
    onSuccess: async (workspaceId) => {
      forgetEverything();
      if (next) await navigate({ to: next });
      // A newcomer's first step is a form; the banner above it asks them to confirm their address.
      else await navigate({ to: '/w/$workspaceId/forms', params: { workspaceId } });
    },
    onError: problem.report,
  });
  return (
    <AuthLayout
      title="Create your account"
      footer={
        <>
          Have an account?{' '}
          <Link to="/sign-in" search={next ? { next } : {}}>
            Sign in
          </Link>
        </>
      }
    >
      <SubmitForm onSubmit={form.handleSubmit((input) => signUp.mutate(input))} problem={problem} submitLabel="Sign up" pending={signUp.isPending}>
        <TextField form={form} name="name" optional label="Name" autoComplete="name" hint="Optional. Your personal workspace is named after you." />
        <TextField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <NewPasswordField form={form} name="password" label="Password" />
      </SubmitForm>
    </AuthLayout>
  );
}
