import { zodResolver } from '@hookform/resolvers/zod';
import { formClaimInput } from '@lfk/api/schemas';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { Problem } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import { FormsSubpage } from './forms-subpage.tsx';
import { useOpenForm } from './use-open-form.ts';

const claimFields = formClaimInput.omit({ workspace_id: true });

function explainClaim(problem: Problem) {
  if (problem.code === 'form_not_found') return 'Check the form id and the claim token: both come from the answer that created the form.';
  if (problem.code === 'form_already_claimed') return 'Someone claimed it already. If it was not you, ask the members of your team.';
  return undefined;
}

/** Moves a form made without an account into this workspace, with the claim token it came with. */
export function ClaimFormPage() {
  const workspace = useWorkspace();
  const openForm = useOpenForm(workspace.id);
  const form = useForm({ resolver: zodResolver(claimFields), defaultValues: { form_id: '', claim_token: '' } });
  const problem = useFormProblem(['form_id', 'claim_token'], form.setError);
  const claim = useMutation({
    ...trpc.forms.claim.mutationOptions(),
    onSuccess: openForm,
    onError: problem.report,
  });
  return (
    <FormsSubpage title="Claim a form">
      <p className="lead">
        A form made without an account came with a claim token (<code>lfc_…</code>), shown once. Paste it here to move the form into {workspace.name}.
      </p>
      <SubmitForm
        onSubmit={form.handleSubmit((input) => claim.mutate({ ...input, workspace_id: workspace.id }))}
        problem={problem}
        explain={explainClaim}
        submitLabel="Claim form"
        pending={claim.isPending}
      >
        <TextField form={form} name="form_id" label="Form id" placeholder="form_…" autoComplete="off" />
        <TextField form={form} name="claim_token" label="Claim token" placeholder="lfc_…" autoComplete="off" />
      </SubmitForm>
    </FormsSubpage>
  );
}
