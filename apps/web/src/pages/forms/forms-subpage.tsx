import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';

/** The way back from a form's pages: the workspace's forms and, below one form, that form. */
export function FormsBreadcrumb({ workspaceId, form }: { workspaceId: string; form?: { id: string; name: string } | undefined }) {
  return (
    <p className="breadcrumb">
      <Link to="/w/$workspaceId/forms" params={{ workspaceId }}>
        Forms
      </Link>
      {form && (
        <>
          {' / '}
          <Link to="/w/$workspaceId/forms/$formId" params={{ workspaceId, formId: form.id }}>
            {form.name}
          </Link>
        </>
      )}
    </p>
  );
}

/** The frame of a page opened from the forms list (a new form, a claim): the way back, then its title. */
export function FormsSubpage({ title, children }: { title: string; children: ReactNode }) {
  const workspace = useWorkspace();
  usePageTitle(title, workspace.name);
  return (
    <>
      <FormsBreadcrumb workspaceId={workspace.id} />
      <h1>{title}</h1>
      {children}
    </>
  );
}
