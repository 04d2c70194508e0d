import { Command } from '@commander-js/extra-typings';
import type { RouterInputs } from '@lfk/client';
import { formsApi } from '../../command-context.ts';
import { usageError } from '../../errors.ts';
import { action } from '../run-command.ts';

/** `lfk forms close|reopen`: the form's `closed`, by a key or a session. */
export const openCloseCommand = (name: 'close' | 'reopen') =>
  new Command(name)
    .description(
      name === 'close' ? 'Close a form: submissions are refused until it is reopened' : 'Reopen a closed form (a closing time already past is cleared)',
    )
    .argument('<form_id>', 'the form')
    .option('--message <text>', 'what a person who tries to send it reads (close only)')
    .action(
      action(async (ctx, formId, flags) => {
        if (name === 'reopen' && flags.message !== undefined) {
          throw usageError('conflicting_flags', '--message goes with close: a reopened form shows no message.');
        }
        const api = await formsApi(ctx);
        let body: Omit<RouterInputs['forms']['update'], 'form_id'> = { closed: name === 'close' };
        if (flags.message !== undefined) body.closed_message = flags.message;
        if (name === 'reopen') {
          // A closing time already past would keep the form closed: reopening means open now.
          const current = await api.forms.get.query({ form_id: formId });
          if (current.closes_at && Date.parse(current.closes_at) <= Date.now()) body = { ...body, closes_at: null };
        }
        const form = await api.forms.update.mutate({ form_id: formId, ...body });
        ctx.out.result(form, (form) => {
          ctx.out.line(`${name === 'close' ? 'Closed' : 'Reopened'} form ${form.id}.`);
          if (name === 'reopen' && form.max_submissions !== null) {
            ctx.out.note(`It still takes at most ${form.max_submissions} submissions ('lfk forms update ${form.id} --no-max-submissions' lifts that).`);
          }
        });
      }),
    );
