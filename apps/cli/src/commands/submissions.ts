import { type CommandContext, keyApi, sessionApi } from '../command-context.ts';
import { valuesFromFlags } from '../input/values.ts';
import { noteNextPage, type PageFlags, pageInput } from './pages.ts';

export async function create(
  ctx: CommandContext,
  formId: string,
  flags: { data?: string[]; dataJson?: string; idempotencyKey?: string },
): Promise<void> {
  const data = await valuesFromFlags(flags.data, flags.dataJson);
  // Server-side submissions authenticate with a key; a session is not one, so it is not sent.
  const api = await keyApi(ctx);
  const idempotencyKey = flags.idempotencyKey ?? crypto.randomUUID();
  const created = await api.submissions.create.mutate({ form_id: formId, data }, { context: { idempotencyKey } });
  ctx.out.result(created, (created) => ctx.out.line(`Created submission ${created.id} on ${created.form_id}.`));
}

const preview = (data: Record<string, unknown>) => {
  const text = Object.entries(data)
    .map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

export async function list(ctx: CommandContext, formId: string, flags: PageFlags): Promise<void> {
  const input = pageInput(flags);
  const api = await sessionApi(ctx);
  const page = await api.submissions.list.query({ form_id: formId, ...input });
  ctx.out.result(page, (page) => {
    if (page.data.length === 0) return ctx.out.line(`No submissions on ${formId} yet.`);
    ctx.out.table(
      [
        { header: 'ID', value: (s) => s.id },
        { header: 'CREATED', value: (s) => s.created_at },
        { header: 'SOURCE', value: (s) => s.source },
        { header: 'DATA', value: (s) => preview(s.data) },
      ],
      page.data,
    );
    noteNextPage(ctx, page.next_cursor, `lfk submissions list ${formId}`);
  });
}
