import { Command } from '@commander-js/extra-typings';
import { formsApi, withClient } from '../../command-context.ts';
import { callAndShow } from '../run-command.ts';

export const formsResendVerificationCommand = () =>
  new Command('resend-verification')
    .description("Send a new verification link to each of the form's notify emails not verified yet")
    .argument('<form_id>', 'the form')
    .action(
      callAndShow(
        withClient(formsApi),
        ({ api }, formId) => api.forms.resendVerification.mutate({ form_id: formId }),
        (sent, { out }) => out.line(`Sent a new verification link to ${sent.sent_to_all.join(', ')}.`),
      ),
    );
