import { PAGE_LIMIT } from '@lfk/vocabulary';
import { formCreateInput } from '@lfk/api/schemas';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { trpc } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import { editorResolver } from './editor-resolver.ts';
import { FormEditor } from './form-editor.tsx';
import { EDITOR_FIELDS, newFormValues } from './form-values.ts';
import { FormsSubpage } from './forms-subpage.tsx';
import { useOpenForm } from './use-open-form.ts';

export function NewFormPage() {
  const workspace = useWorkspace();
  const openForm = useOpenForm(workspace.id);
  const projects = useQuery(trpc.projects.list.queryOptions({ workspace_id: workspace.id, limit: PAGE_LIMIT.max }));
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
    onSuccess: openForm,
    onError: problem.report,
  });
  return (
    <FormsSubpage title="New form">
      <FormEditor
        form={form}
        workspaceId={workspace.id}
        problem={problem}
        submitLabel="Create form"
        pending={create.isPending}
        onSubmit={(fields) => create.mutate({ ...fields, workspace_id: workspace.id })}
      />
    </FormsSubpage>
  );
}
