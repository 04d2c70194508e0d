import { Command } from '@commander-js/extra-typings';
import type { RouterOutputs } from '@lfk/client';
import { type CommandContext, formsApi, withClient } from '../../command-context.ts';
import { callAndShow } from '../run-command.ts';

/** One previewed email, as a mail program would show its headers and text. */
function printPreview(title: string, email: RouterOutputs['submissions']['emailPreviews']['notification'], ctx: CommandContext): void {
  ctx.out.line(ctx.out.style.bold(title));
  if (!email) {
    ctx.out.line(title === 'Notification' ? '(none: the form has no notification address)' : '(none: the form has no auto-reply)');
    return;
  }
  ctx.out.line(`To: ${email.to}`);
  if (email.reply_to) ctx.out.line(`Reply-To: ${email.reply_to}`);
  ctx.out.line(`Subject: ${email.subject}`);
  if (email.list_unsubscribe) ctx.out.line(`List-Unsubscribe: <${email.list_unsubscribe}>`);
  ctx.out.line();
  ctx.out.line(email.text);
}

export const formsPreviewEmailsCommand = () =>
  new Command('preview-emails')
    .description('Show what a submission of sample values would send now: the notification and the auto-reply')
    .argument('<form_id>', 'the form')
    .action(
      callAndShow(
        withClient(formsApi),
        ({ api }, formId) => api.submissions.emailPreviews.query({ form_id: formId }),
        (previews, ctx) => {
          printPreview('Notification', previews.notification, ctx);
          ctx.out.line();
          printPreview('Auto-reply', previews.auto_reply, ctx);
        },
      ),
    );
