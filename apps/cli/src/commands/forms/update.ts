import { Command } from '@commander-js/extra-typings';
import { formsApi, requireSession, sessionApi } from '../../command-context.ts';
import { usageError } from '../../errors.ts';
import { parseFieldShorthand } from '../../input/fields.ts';
import { collect, examples } from '../options.ts';
import { action } from '../run-command.ts';
import { formBody, retentionOf, withFormOptions } from './form-flags.ts';
import { asOrigin, confirmReplacement, edited, hasEdits } from './list-edits.ts';
import { printForm } from './print-form.ts';

export const formsUpdateCommand = () =>
  withFormOptions(
    new Command('update')
      .description("Change some of a form's settings; --field and --origin replace the whole list, --add-…/--remove-… change one")
      .argument('<form_id>', 'the form'),
  )
    .option('--add-field <name:type[:required]>', 'add a field, keeping the others; repeatable', collect)
    .option('--remove-field <name>', 'remove the field of this name; repeatable', collect)
    .option('--add-origin <origin>', 'allow one more origin, keeping the others; repeatable', collect)
    .option('--remove-origin <origin>', 'no longer allow this origin; repeatable', collect)
    .option('--no-redirect-url', 'remove the redirect URL')
    .option('--no-error-redirect-url', "show lfk's page when the form refuses a post")
    .option('--no-notify-email', 'stop emailing submissions')
    .option('--no-honeypot', 'remove the honeypot field')
    .option('--no-captcha', 'stop requiring a captcha')
    .option('--no-closes-at', 'never close the form by time')
    .option('--no-max-submissions', 'take any number of submissions')
    .option('--no-closed-message', 'say the default when the form is closed')
    .option('--no-retention-days', 'keep submissions until deleted')
    .option('--no-auto-reply', 'remove the auto-reply')
    .option('-y, --yes', 'replace a whole list of fields or origins without asking')
    .addHelpText(
      'after',
      examples([
        'lfk forms update form_… --add-field phone:tel',
        'lfk forms update form_… --remove-field fax --add-origin https://www.example.com',
        'lfk forms update form_… --field email:email:required --field message:textarea   # the form has exactly these two',
      ]),
    )
    .action(
      action(async (ctx, formId, flags) => {
        const fieldEdits = { add: flags.addField, remove: flags.removeField };
        const originEdits = { add: flags.addOrigin, remove: flags.removeOrigin };
        if (hasEdits(fieldEdits) && (flags.field?.length || flags.schema !== undefined)) {
          throw usageError('conflicting_flags', 'Give the whole list of fields (--field, --schema) or changes to it (--add-field, --remove-field), not both.');
        }
        if (hasEdits(originEdits) && flags.origin?.length) {
          throw usageError('conflicting_flags', 'Give the whole list of origins (--origin) or changes to it (--add-origin, --remove-origin), not both.');
        }
        const body = await formBody(flags);
        const retention = retentionOf(flags);
        // Retention is a person's to change (a shorter one deletes submissions): refused before anything else is changed.
        if (retention !== undefined) requireSession(ctx.settings);
        const additions = (flags.addField ?? []).map(parseFieldShorthand);
        if (Object.keys(body).length === 0 && retention === undefined && !hasEdits(fieldEdits) && !hasEdits(originEdits)) {
          throw usageError('nothing_to_update', 'Say what to change: see lfk forms update --help.');
        }
        const api = await formsApi(ctx);
        const replacing = body.schema !== undefined || body.allowed_origins !== undefined;
        if (hasEdits(fieldEdits) || hasEdits(originEdits) || replacing) {
          // The lists are edited from the form as it is now; a change made by someone in between is
          // overwritten, as with any whole-list update.
          const current = await api.forms.get.query({ form_id: formId });
          const fieldNames = current.schema.map((f) => f.name);
          if (hasEdits(fieldEdits)) {
            body.schema = edited(current.schema, (f) => f.name, { add: additions as typeof current.schema, remove: flags.removeField ?? [] }, 'field', 'field');
          } else if (body.schema) {
            await confirmReplacement(
              ctx,
              'field',
              fieldNames,
              body.schema.map((f) => f.name),
              flags.yes,
            );
          }
          if (hasEdits(originEdits)) {
            const origins = { add: (flags.addOrigin ?? []).map(asOrigin), remove: (flags.removeOrigin ?? []).map(asOrigin) };
            body.allowed_origins = edited(current.allowed_origins, String, origins, 'origin', 'origin');
          } else if (body.allowed_origins) {
            await confirmReplacement(ctx, 'origin', current.allowed_origins, body.allowed_origins, flags.yes);
          }
        }
        // A client of its own after any question, so time spent answering is not spent from the timeout.
        let form =
          Object.keys(body).length > 0 || retention === undefined ? await (await formsApi(ctx)).forms.update.mutate({ form_id: formId, ...body }) : null;
        // Retention is a member's session's to change (a shorter one deletes submissions): asked with the session.
        if (retention !== undefined) form = await (await sessionApi(ctx)).forms.setRetention.mutate({ form_id: formId, retention_days: retention });
        if (!form) return;
        ctx.out.result(form, (form) => {
          ctx.out.note(`Updated form ${form.id}.`);
          printForm(form, ctx);
        });
      }),
    );
