import { CreateWorkspaceForm } from '../../layout/create-workspace-dialog.tsx';
import { SignOutButton } from '../../layout/sign-out-button.tsx';
import { AuthLayout } from './auth-layout.tsx';

/** A signed-in person in no workspace (they deleted or left the last one): make one, or wait for an invitation. */
export function WelcomePage() {
  return (
    <AuthLayout title="You are not in any workspace" footer={<SignOutButton />}>
      <p>Create a workspace of your own, or open an invitation someone emailed you.</p>
      <CreateWorkspaceForm />
    </AuthLayout>
  );
}
