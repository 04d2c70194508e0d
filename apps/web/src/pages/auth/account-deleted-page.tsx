import { Link } from '@tanstack/react-router';
import { AuthLayout } from './auth-layout.tsx';

/** Where deleting one's account ends: it says what happened, rather than dropping the person on the sign-in form. */
export function AccountDeletedPage() {
  return (
    <AuthLayout
      title="Your account is deleted"
      footer={
        <>
          Changed your mind? <Link to="/sign-up">Create a new account</Link>
        </>
      }
    >
      <p role="status">
        Your sessions have ended and you have left every workspace. Workspaces where you were the only member were deleted with their keys, forms and
        submissions; the others go on without you.
      </p>
    </AuthLayout>
  );
}
