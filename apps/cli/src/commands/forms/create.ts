import { Command } from '@commander-js/extra-typings';
import { type CommandContext, formsApi, resolveWorkspace } from '../../command-context.ts';
import { usageError } from '../../errors.ts';
import { action } from '../run-command.ts';
import { formBody, retentionOf, withFormOptions } from './form-flags.ts';
import { type Form, printForm } from './print-form.ts';

type Snippets = Pick<typeof import('@lfk/client'), 'submissionUrl' | 'htmlFormSnippet' | 'curlSubmissionSnippet' | 'reactFormSnippet'>;

/** Where submissions go, and what to paste to send them: the HTML form for a site, or the call with a key. */
function printHowToSubmit(form: Form, ctx: CommandContext, { submissionUrl, htmlFormSnippet, curlSubmissionSnippet, reactFormSnippet }: Snippets): void {
  const base = ctx.settings.baseUrl;
  ctx.out.line();
  ctx.out.line(`Submissions: POST ${submissionUrl(form, base)}`);
  if (form.submission_mode === 'api_key') {
    ctx.out.line('From your server, with a key of the workspace in LFK_API_KEY:');
    ctx.out.line();
    ctx.out.line(curlSubmissionSnippet(form, base));
    return;
  }
  ctx.out.line(
    form.allowed_origins.length > 0
      ? `Paste this into a page of ${form.allowed_origins.join(', ')}:`
      : 'Paste this into a page of your site, once its origin is allowed (lfk forms update --add-origin https://…):',
  );
  ctx.out.line();
  ctx.out.line(htmlFormSnippet(form, base));
  ctx.out.line();
  ctx.out.line(`To keep people on the page, put lfk's script before the form: ${base}/v1/kit gives its tag (script_tag), with its integrity hash.`);
  ctx.out.line('In a React app, with @lfk/react:');
  ctx.out.line();
  ctx.out.line(reactFormSnippet(form, base));
}

export const formsCreateCommand = () =>
  withFormOptions(new Command('create'))
    .description("Create a form: in the key's workspace, the default workspace, or unclaimed without credentials")
    .option('--idempotency-key <key>', 'reuse to make a repeated command create at most one form')
    .action(
      action(async (ctx, flags) => {
        const body = await formBody(flags);
        if (!body.name) throw usageError('missing_name', 'A form needs --name.');
        if (!body.schema) throw usageError('missing_schema', 'A form needs fields: --field name:type[:required] (repeatable) or --schema FILE|-.');
        const api = await formsApi(ctx);
        const { settings } = ctx;
        // A key creates in its own workspace; a session must name one; with neither the form is born unclaimed.
        let workspaceId: string | undefined;
        if (settings.apiKey) workspaceId = settings.workspace?.id;
        else if (settings.profile.session_token) workspaceId = await resolveWorkspace(ctx, api);
        // One key per command run: if the answer is lost and the request is sent again, the server
        // answers from the first create instead of making a second form.
        const idempotencyKey = flags.idempotencyKey ?? crypto.randomUUID();
        const retention = retentionOf(flags);
        const form = await api.forms.create.mutate(
          {
            ...body,
            name: body.name,
            schema: body.schema,
            ...(retention !== undefined ? { retention_days: retention } : {}),
            ...(workspaceId ? { workspace_id: workspaceId } : {}),
          },
          { context: { idempotencyKey } },
        );
        // Loaded only when printed for a person: the client's module is not on every command's start.
        const snippets = ctx.out.json ? null : await import('@lfk/client');
        ctx.out.result(form, (form) => {
          ctx.out.note(`Created form ${form.id}${form.state === 'unclaimed' ? ' (unclaimed)' : ` in ${form.workspace_id}`}.`);
          printForm(form, ctx);
          if (form.claim_token) {
            ctx.out.line();
            ctx.out.line(`claim token  ${ctx.out.style.bold(form.claim_token)}`);
            ctx.out.note(
              ctx.out.errorStyle.yellow(
                `This is the only time the claim token is shown. Claim the form with 'lfk forms claim ${form.id} --claim-token <token>'.`,
              ),
            );
          }
          if (snippets) printHowToSubmit(form, ctx, snippets);
        });
      }),
    );
