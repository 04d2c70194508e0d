import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { trpc } from '../../api/trpc.ts';
import { Loaded } from '../../components/states.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import { FormsBreadcrumb } from '../forms/forms-subpage.tsx';
import { Endpoints } from './endpoint-list.tsx';

export function WebhooksPage() {
  const workspace = useWorkspace();
  const { formId } = useParams({ from: '/w/$workspaceId/forms/$formId/webhooks' });
  const form = useQuery(trpc.forms.get.queryOptions({ form_id: formId }));
  usePageTitle('Webhooks', form.data?.name ?? 'Form', workspace.name);
  return (
    <>
      <FormsBreadcrumb workspaceId={workspace.id} form={form.data} />
      <Loaded query={form} what="the form">
        {(loaded) => <Endpoints formId={loaded.id} formName={loaded.name} />}
      </Loaded>
    </>
  );
}
