import { zodResolver } from '@hookform/resolvers/zod';
import { passwordResetRequestInput } from '@lfk/api/schemas';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { trpcClient } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { AuthLayout } from './auth-layout.tsx';

/** "Forgot password?": a reset link is emailed; the page says the same whatever the address. */
export function ForgotPasswordPage() {
  const form = useForm({ resolver: zodResolver(passwordResetRequestInput), defaultValues: { email: '' } });
  const problem = useFormProblem(['email'], form.setError);
  const request = useMutation({
    mutationFn: (input: { email: string }) => trpcClient.passwordResets.request.mutate(input),
    onError: problem.report,
  });
  return (
    <AuthLayout
      title="Reset your password"
      footer={
        <>
          Remembered it? <Link to="/sign-in">Sign in</Link>
        </>
      }
    >
      {request.isSuccess ? (
        <p role="status">{request.data.message} Open the link in the email to choose a new password.</p>
      ) : (
        <SubmitForm onSubmit={form.handleSubmit((input) => request.mutate(input))} problem={problem} submitLabel="Email me a link" pending={request.isPending}>
          <TextField form={form} name="email" label="Email" type="email" autoComplete="email" hint="The address you sign in with." />
        </SubmitForm>
      )}
    </AuthLayout>
  );
}
