import { Command } from '@commander-js/extra-typings';
import { sessionApi } from '../../command-context.ts';
import { confirmOrStop } from '../../terminal/prompts.ts';
import { action } from '../run-command.ts';

export const formsDeleteCommand = () =>
  new Command('delete')
    .description("Delete a form with everything it holds: submissions, their emails, webhooks (an owner's session)")
    .argument('<form_id>', 'the form')
    .option('-y, --yes', 'delete without asking')
    .action(
      action(async (ctx, formId, flags) => {
        if (!flags.yes) {
          const form = await (await sessionApi(ctx)).forms.get.query({ form_id: formId });
          await confirmOrStop(
            `Delete the form "${form.name}" (${form.id}) and every submission it holds? This cannot be undone.`,
            '--yes to delete without asking',
            'Nothing was deleted.',
          );
        }
        // A client of its own after the question, so time spent answering is not spent from the timeout.
        await (await sessionApi(ctx)).forms.delete.mutate({ form_id: formId });
        ctx.out.result({ id: formId, deleted: true }, () => ctx.out.line(`Deleted form ${formId}.`));
      }),
    );
