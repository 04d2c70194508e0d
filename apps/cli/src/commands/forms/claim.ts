import { Command } from '@commander-js/extra-typings';
import { inWorkspace } from '../../command-context.ts';
import { callAndShow } from '../run-command.ts';
import { printForm } from './print-form.ts';

export const formsClaimCommand = () =>
  new Command('claim')
    .description('Claim an unclaimed form into your workspace with its claim token (needs a session)')
    .argument('<form_id>', 'the form')
    .requiredOption('--claim-token <token>', 'the lfc_… token printed when the form was created')
    .action(
      callAndShow(
        inWorkspace,
        ({ api, workspaceId }, formId, flags) => api.forms.claim.mutate({ form_id: formId, claim_token: flags.claimToken, workspace_id: workspaceId }),
        (form, ctx) => {
          ctx.out.note(`Claimed form ${form.id} into ${form.workspace_id}.`);
          printForm(form, ctx);
        },
      ),
    );
