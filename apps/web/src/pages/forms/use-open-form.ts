import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { trpc } from '../../api/trpc.ts';

/**
 * Where a form made or claimed here is shown next: its own page, with the forms list (now
 * missing it) refetched first.
 */
export function useOpenForm(workspaceId: string) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (form: { id: string }) => {
    await queryClient.invalidateQueries(trpc.forms.list.pathFilter());
    await navigate({ to: '/w/$workspaceId/forms/$formId', params: { workspaceId, formId: form.id } });
  };
}
