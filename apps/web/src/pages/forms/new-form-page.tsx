import { formCreateInput } from '@lfk/api/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { trpc } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import { editorResolver } from './editor-resolver.ts';
import { FormEditor } from './form-editor.tsx';
import { EDITOR_FIELDS, newFormValues } from './form-values.ts';

export function NewFormPage() {
  const workspace = useWorkspace();
  usePageTitle('New form', workspace.name);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const projects = useQuery(trpc.projects.list.queryOptions({ workspace_id: workspace.id, limit: 100 }));
  const form = useForm({
    resolver: editorResolver(formCreateInput, { workspace_id: workspace.id }),
    defaultValues: newFormValues(''),
  });
  const defaultProject = projects.data?.data.find((p) => p.is_default)?.id;
  useEffect(() => {
    if (defaultProject && !form.getValues('project_id')) form.setValue('project_id', defaultProject);
  }, [defaultProject, form]);
  const problem = useFormProblem(EDITOR_FIELDS, form.setError);
  const create = useMutation({
    ...trpc.forms.create.mutationOptions(),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries(trpc.forms.list.pathFilter());
      await navigate({ to: '/w/$workspaceId/forms/$formId', params: { workspaceId: workspace.id, formId: created.id } });
    },
    onError: problem.report,
  });
  return (
    <>
      <p className="breadcrumb">
        <Link to="/w/$workspaceId/forms" params={{ workspaceId: workspace.id }}>
          Forms
        </Link>
      </p>
      <h1>New form</h1>
      <FormEditor
        form={form}
        workspaceId={workspace.id}
        problem={problem}
        submitLabel="Create form"
        pending={create.isPending}
        onSubmit={(fields) => create.mutate({ ...fields, workspace_id: workspace.id })}
      />
    </>
  );
}
