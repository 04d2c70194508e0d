import { commandGroup } from '../options.ts';
import { formsClaimCommand } from './claim.ts';
import { openCloseCommand } from './close-reopen.ts';
import { formsCreateCommand } from './create.ts';
import { formsDeleteCommand } from './delete.ts';
import { formsGetCommand } from './get.ts';
import { formsListCommand } from './list.ts';
import { formsPreviewEmailsCommand } from './preview-emails.ts';
import { formsResendVerificationCommand } from './resend-verification.ts';
import { formsUpdateCommand } from './update.ts';

// `lfk forms …`: each command in a file of its own; this assembles the group, in the order its help lists them.

export const formsCommand = () =>
  commandGroup(
    'forms',
    'Create and manage forms (with an API key or a session)',
    [
      formsCreateCommand(),
      formsListCommand(),
      formsGetCommand(),
      formsUpdateCommand(),
      openCloseCommand('close'),
      openCloseCommand('reopen'),
      formsDeleteCommand(),
      formsResendVerificationCommand(),
      formsPreviewEmailsCommand(),
      formsClaimCommand(),
    ],
    [
      'lfk forms create --name Contact --field email:email:required --field message:textarea --origin https://example.com',
      'lfk forms create --name Signup --schema schema.json --mode api_key',
      'lfk forms create --name Plans --field plan:select=free,pro:required',
      'lfk forms update form_… --notify-email team@example.com',
      'lfk forms update form_… --honeypot _gotcha --retention-days 90',
      'lfk forms update form_… --unknown-fields keep --auto-reply-field email --auto-reply-subject "Thanks, {name}" --auto-reply-text "We got your message."',
      'echo "$TURNSTILE_SECRET" | lfk forms update form_… --captcha turnstile --captcha-site-key 0x4AAA… --captcha-secret -',
      'lfk forms close form_… --message "Registrations are closed."',
      'lfk forms delete form_… --yes',
      'lfk forms get form_… --json',
      'lfk forms claim form_… --claim-token lfc_…',
    ],
  );
