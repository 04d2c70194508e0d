import { zodResolver } from '@hookform/resolvers/zod';
import { formClaimInput } from '@lfk/api/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import type { Problem } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { TextField } from '../../components/text-field.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';

const claimFields = formClaimInput.omit({ workspace_id: true });

function explainClaim(problem: Problem) {
  if (problem.code === 'form_not_found') return 'Check the form id and the claim token: both come from the answer that created the form.';
  if (problem.code === 'form_already_claimed') return 'Someone claimed it already. If it was not you, ask the members of your team.';
  return undefined;
}

/** Moves a form made without an account into this workspace, with the claim token it came with. */
export function ClaimFormPage() {
  const workspace = useWorkspace();
  usePageTitle('Claim a form', workspace.name);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm({ resolver: zodResolver(claimFields), defaultValues: { form_id: '', claim_token: '' } });
  const problem = useFormProblem(['form_id', 'claim_token'], form.setError);
  const claim = useMutation({
    ...trpc.forms.claim.mutationOptions(),
    onSuccess: async (claimed) => {
      await queryClient.invalidateQueries(trpc.forms.list.pathFilter());
      await navigate({ to: '/w/$workspaceId/forms/$formId', params: { workspaceId: workspace.id, formId: claimed.id } });
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
      <h1>Claim a form</h1>
      <p className="lead">
        A form made without an account came with a claim token (<code>lfc_…</code>), shown once. Paste it here to move
        the form into {workspace.name}.
      </p>
      <form onSubmit={form.handleSubmit((input) => claim.mutate({ ...input, workspace_id: workspace.id }))} noValidate>
        <TextField label="Form id" placeholder="form_…" autoComplete="off" registration={form.register('form_id')} error={form.formState.errors.form_id} />
        <TextField label="Claim token" placeholder="lfc_…" autoComplete="off" registration={form.register('claim_token')} error={form.formState.errors.claim_token} />
        <ProblemAlert problem={problem.problem} unplacedDetails={problem.unplaced} explain={explainClaim} />
        <button type="submit" disabled={claim.isPending}>
          Claim form
        </button>
      </form>
    </>
  );
}
