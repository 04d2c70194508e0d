import { SPAM_REASON_WORDS, type SubmissionStatus } from '@lfk/vocabulary';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { type ChangeEvent, type FormEvent, Fragment, useState } from 'react';
import { trpc } from '../../api/trpc.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Pager, useCursorPages } from '../../components/pager.tsx';
import { Empty, Loaded, LoadedList } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import { EmbedSnippet } from '../forms/embed-snippet.tsx';
import { useExport } from './use-export.tsx';
import { FormsBreadcrumb } from '../forms/forms-subpage.tsx';
import type { Form } from '../forms/form-values.ts';
import { SpamVerdict } from './spam-verdict.tsx';
import { SubmissionValues, valueText } from './submission-values.tsx';

const PAGE_SIZE = 25;
/** The fields a row shows beside its time until the person chooses others; opening it shows every one. */
const FIELDS_IN_A_ROW = 3;

/** The fields chosen as columns for this form, kept in this browser; the first few until chosen. */
function useColumns(form: Form) {
  const key = `lfk.columns.${form.id}`;
  const [chosen, setChosen] = useState<string[]>(() => {
    try {
      const kept = JSON.parse(localStorage.getItem(key) ?? 'null');
      if (Array.isArray(kept)) return kept.filter((name): name is string => typeof name === 'string');
    } catch {
      // A value this page did not write: the default.
    }
    return form.schema.slice(0, FIELDS_IN_A_ROW).map((f) => f.name);
  });
  const toggle = (name: string) =>
    setChosen((before) => {
      const next = before.includes(name) ? before.filter((n) => n !== name) : [...before, name];
      localStorage.setItem(key, JSON.stringify(next));
      return next;
    });
  // In the form's order, and only fields it still has.
  return { shown: form.schema.filter((f) => chosen.includes(f.name)), chosen, toggle };
}

/** A day as typed in a date input, as the API's time: its start in the browser's time zone. */
const startOfDay = (day: string) => (day ? new Date(`${day}T00:00:00`).toISOString() : undefined);
/** The day after `day`'s start: `until` is exclusive, so the whole of `day` is in. */
const endOfDay = (day: string) => {
  if (!day) return undefined;
  const next = new Date(`${day}T00:00:00`);
  next.setDate(next.getDate() + 1);
  return next.toISOString();
};

export function InboxPage() {
  const workspace = useWorkspace();
  const { formId } = useParams({ from: '/w/$workspaceId/forms/$formId/submissions' });
  const form = useQuery(trpc.forms.get.queryOptions({ form_id: formId }));
  usePageTitle('Submissions', form.data?.name ?? 'Form', workspace.name);
  return (
    <>
      <FormsBreadcrumb workspaceId={workspace.id} form={form.data} />
      <h1>Submissions{form.data ? ` to ${form.data.name}` : ''}</h1>
      <Loaded query={form} what="the form">
        {(loaded) => <Inbox form={loaded} />}
      </Loaded>
    </>
  );
}

function Inbox({ form }: { form: Form }) {
  const [status, setStatus] = useState<SubmissionStatus>('ok');
  const [q, setQ] = useState('');
  const [typed, setTyped] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const pages = useCursorPages();
  const columns = useColumns(form);
  const range = { since: startOfDay(from), until: endOfDay(to) };
  const exporting = useExport(form.id, status, q, range);
  const pick = (set: (day: string) => void) => (event: ChangeEvent<HTMLInputElement>) => {
    set(event.target.value);
    pages.reset();
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    setQ(typed.trim());
    pages.reset();
  };
  const show = (next: SubmissionStatus) => {
    setStatus(next);
    pages.reset();
  };
  return (
    <>
      <div className="toolbar inbox-toolbar">
        <fieldset className="tabs">
          <legend className="visually-hidden">Which submissions</legend>
          <button type="button" className="tab" aria-pressed={status === 'ok'} onClick={() => show('ok')}>
            Inbox
          </button>
          <button type="button" className="tab" aria-pressed={status === 'spam'} onClick={() => show('spam')}>
            Spam
          </button>
        </fieldset>
        <search className="search">
          <form onSubmit={search}>
            <input
              type="search"
              aria-label="Search submissions"
              placeholder="Search values"
              value={typed}
              maxLength={200}
              onChange={(e) => setTyped(e.target.value)}
            />
            <button type="submit" className="secondary">
              Search
            </button>
          </form>
        </search>
        <div className="actions">{exporting.buttons}</div>
      </div>
      <div className="toolbar inbox-filters">
        <fieldset className="date-range">
          <legend>Received</legend>
          <label>
            From <input type="date" value={from} max={to || undefined} onChange={pick(setFrom)} />
          </label>
          <label>
            To <input type="date" value={to} min={from || undefined} onChange={pick(setTo)} />
          </label>
        </fieldset>
        <details className="columns">
          <summary>Columns</summary>
          <fieldset>
            <legend className="visually-hidden">Fields shown as columns</legend>
            {form.schema.map((f) => (
              <label key={f.name} className="checkbox-label">
                <input type="checkbox" checked={columns.chosen.includes(f.name)} onChange={() => columns.toggle(f.name)} /> {f.label ?? f.name}
              </label>
            ))}
          </fieldset>
        </details>
      </div>
      {exporting.news}
      <SubmissionTable form={form} status={status} q={q} range={range} shown={columns.shown} pages={pages} />
    </>
  );
}

interface TableProps {
  form: Form;
  status: SubmissionStatus;
  q: string;
  range: { since: string | undefined; until: string | undefined };
  /** The fields shown as columns. */
  shown: Form['schema'];
  pages: ReturnType<typeof useCursorPages>;
}

function SubmissionTable({ form, status, q, range, shown, pages }: TableProps) {
  const queryClient = useQueryClient();
  const input = {
    form_id: form.id,
    limit: PAGE_SIZE,
    cursor: pages.cursor,
    status,
    ...(q ? { q } : {}),
    ...(range.since ? { since: range.since } : {}),
    ...(range.until ? { until: range.until } : {}),
  };
  const submissions = useQuery(trpc.submissions.list.queryOptions(input));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [deleting, setDeleting] = useState<string[] | null>(null);
  const [said, setSaid] = useState('');
  const refresh = () => {
    void queryClient.invalidateQueries(trpc.submissions.list.pathFilter());
    void queryClient.invalidateQueries(trpc.forms.list.pathFilter());
  };
  const remove = useMutation({
    ...trpc.submissions.deleteMany.mutationOptions(),
    onSuccess: ({ deleted }) => {
      setDeleting(null);
      setSelected(new Set());
      setSaid(deleted === 1 ? 'Deleted 1 submission.' : `Deleted ${deleted} submissions.`);
      refresh();
    },
  });
  const moved = (message: string) => () => {
    setSaid(message);
    refresh();
  };
  const markSpam = useMutation({ ...trpc.submissions.markSpam.mutationOptions(), onSuccess: moved('Moved to spam.') });
  const markNotSpam = useMutation({
    ...trpc.submissions.markNotSpam.mutationOptions(),
    onSuccess: moved('Moved to the inbox: its email and webhooks are sent now.'),
  });
  const toggle = (set: Set<string>, id: string) => {
    const next = new Set(set);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  };
  const labels = new Map(form.schema.map((f) => [f.name, f.label ?? f.name]));
  const empty =
    range.since || range.until ? (
      <Empty title="No submission in those days.">
        <p>Choose other days, or clear the dates, to see more.</p>
      </Empty>
    ) : q !== '' ? (
      <Empty title="No submission matches.">
        <p>
          Nothing {status === 'spam' ? 'in spam ' : ''}holds “{q}”. Search looks in every value, whatever its case.
        </p>
      </Empty>
    ) : status === 'spam' ? (
      <Empty title="No spam.">
        <p>Submissions caught by the honeypot or the captcha land here, and are deleted after 30 days.</p>
      </Empty>
    ) : (
      <Empty title="No submissions yet.">
        <p>They appear here, newest first, as soon as they arrive.</p>
        <EmbedSnippet form={form} />
      </Empty>
    );
  return (
    <>
      <p role="status" className="muted">
        {said}
      </p>
      <LoadedList query={submissions} what="submissions" empty={empty}>
        {(page) => {
          const ids = page.data.map((s) => s.id);
          const chosen = ids.filter((id) => selected.has(id));
          const allChosen = chosen.length === ids.length && ids.length > 0;
          return (
            <>
              <div className="toolbar">
                <p className="muted">Newest first. Open one to read every field.</p>
                <div className="actions">
                  <button type="button" className="danger" disabled={chosen.length === 0} onClick={() => setDeleting(chosen)}>
                    Delete selected{chosen.length > 0 ? ` (${chosen.length})` : ''}
                  </button>
                  <button type="button" className="secondary" onClick={() => submissions.refetch()}>
                    Refresh
                  </button>
                </div>
              </div>
              <table className="table submissions-table">
                <caption className="visually-hidden">{status === 'spam' ? 'Spam, newest first' : 'Submissions, newest first'}</caption>
                <thead>
                  <tr>
                    <th scope="col">
                      <input
                        type="checkbox"
                        aria-label="Select every submission on this page"
                        checked={allChosen}
                        onChange={() => setSelected(allChosen ? new Set() : new Set(ids))}
                      />
                    </th>
                    <th scope="col">Received</th>
                    {shown.map((f) => (
                      <th key={f.name} scope="col">
                        {labels.get(f.name)}
                      </th>
                    ))}
                    <th scope="col">{status === 'spam' ? 'Why spam' : 'Via'}</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((submission) => {
                    const isOpen = open.has(submission.id);
                    const name = `submission of ${new Date(submission.created_at).toLocaleString()}`;
                    return (
                      <Fragment key={submission.id}>
                        <tr>
                          <td data-label="Select">
                            <input
                              type="checkbox"
                              aria-label={`Select the ${name}`}
                              checked={selected.has(submission.id)}
                              onChange={() => setSelected((s) => toggle(s, submission.id))}
                            />
                          </td>
                          <td data-label="Received">
                            <Time iso={submission.created_at} />
                          </td>
                          {shown.map((f) => (
                            <td key={f.name} data-label={labels.get(f.name) ?? f.name} className="value">
                              {valueText(submission.data[f.name], submission.files)}
                            </td>
                          ))}
                          <td data-label={status === 'spam' ? 'Why spam' : 'Via'}>
                            {status === 'spam'
                              ? submission.spam_reason
                                ? SPAM_REASON_WORDS[submission.spam_reason]
                                : 'Spam'
                              : submission.source === 'api_key'
                                ? 'API key'
                                : 'Browser'}
                          </td>
                          <td data-label="Actions">
                            <div className="row-actions">
                              <button type="button" className="link" aria-expanded={isOpen} onClick={() => setOpen((o) => toggle(o, submission.id))}>
                                {isOpen ? 'Close' : 'Open'}
                              </button>
                              {status === 'spam' ? (
                                <button type="button" className="link" onClick={() => markNotSpam.mutate({ form_id: form.id, submission_id: submission.id })}>
                                  Not spam
                                </button>
                              ) : (
                                <button type="button" className="link" onClick={() => markSpam.mutate({ form_id: form.id, submission_id: submission.id })}>
                                  Mark spam
                                </button>
                              )}
                              <button type="button" className="link danger-link" onClick={() => setDeleting([submission.id])}>
                                Delete
                              </button>
                            </div>
                          </td>
                        </tr>
                        {isOpen && (
                          <tr className="submission-detail">
                            <td colSpan={shown.length + 4}>
                              <SubmissionValues form={form} submission={submission} />
                              <SpamVerdict form={form} submission={submission} />
                            </td>
                          </tr>
                        )}
                      </Fragment>
                    );
                  })}
                </tbody>
              </table>
              <Pager label="Pages of submissions" pages={pages} nextCursor={page.next_cursor} />
            </>
          );
        }}
      </LoadedList>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting?.length === 1 ? 'Delete this submission?' : `Delete ${deleting?.length ?? 0} submissions?`}
        confirmLabel="Delete"
        onConfirm={() => deleting && remove.mutate({ form_id: form.id, ids: deleting })}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
        pending={remove.isPending}
        error={remove.error}
      >
        <p>Their values, emails and webhook deliveries are deleted for good. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
