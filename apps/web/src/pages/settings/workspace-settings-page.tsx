import { zodResolver } from '@hookform/resolvers/zod';
import { workspaceCreateInput, workspaceUpdateInput } from '@lfk/api/schemas';
import { FILE_LINK_TTL } from '@lfk/vocabulary';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { problemOf } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { Dialog } from '../../components/dialog.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { apiResolver } from '../../components/api-resolver.ts';
import { ErrorText, errorAt } from '../../components/error-text.tsx';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { Loaded } from '../../components/states.tsx';
import { TextField } from '../../components/text-field.tsx';
import { LeaveWorkspace } from '../../layout/leave-workspace.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';

/**
 * The workspace's own settings: its name, how long its file links live and whether its members need
 * a second factor (owners), leaving it, and (owners) deleting it.
 */
export function WorkspaceSettingsPage() {
  const workspace = useWorkspace();
  usePageTitle('Settings', workspace.name);
  const isOwner = workspace.role === 'owner';
  return (
    <>
      <h1>Workspace settings</h1>
      {isOwner ? (
        <>
          <RenameWorkspaceForm workspaceId={workspace.id} name={workspace.name} />
          <FileLinksForm workspaceId={workspace.id} ttl={workspace.file_link_ttl} />
          <RequireTwoFactorForm workspaceId={workspace.id} required={workspace.require_two_factor} />
        </>
      ) : (
        <>
          <p className="lead">
            Only owners can rename or delete this workspace, change how long its file links live, or require two-factor authentication of its members.
          </p>
          {workspace.require_two_factor && <p>Its members need a second factor on their account (an authenticator app or a passkey) to reach it.</p>}
        </>
      )}
      <LeaveWorkspace workspaceId={workspace.id} name={workspace.name} />
      {isOwner && <DeleteWorkspace workspaceId={workspace.id} name={workspace.name} />}
    </>
  );
}

// The rename form edits the name alone, held to the rule a new workspace's name is.
const renameFields = workspaceCreateInput;

function RenameWorkspaceForm({ workspaceId, name }: { workspaceId: string; name: string }) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const form = useForm({ resolver: zodResolver(renameFields), defaultValues: { name } });
  const problem = useFormProblem(['name'], form.setError);
  const rename = useMutation({
    ...trpc.workspaces.update.mutationOptions(),
    onSuccess: async () => {
      setSaved(true);
      await queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
    },
    onError: problem.report,
  });
  return (
    <section aria-labelledby="rename-title" className="card">
      <h2 id="rename-title">Workspace name</h2>
      <form
        className="inline-form"
        onSubmit={form.handleSubmit((input) => {
          setSaved(false);
          problem.clear();
          rename.mutate({ ...input, workspace_id: workspaceId });
        })}
        noValidate
      >
        <TextField form={form} name="name" label="Name" autoComplete="off" />
        <button type="submit" disabled={rename.isPending}>
          Rename
        </button>
      </form>
      <ProblemAlert problem={problem.problem} unplacedDetails={problem.unplaced} />
      <p role="status">{saved ? 'Workspace renamed.' : ''}</p>
    </section>
  );
}

const DAY = 24 * 3600;
const UNITS = { minutes: 60, hours: 3600, days: DAY } as const;
type Unit = keyof typeof UNITS;
/** The lifetimes offered in one click; anything else is "custom". */
const PRESETS = [DAY, 7 * DAY, 30 * DAY];

interface FileLinkValues {
  /** `default` (the server's), a preset's seconds, or `custom`. */
  choice: string;
  amount: string;
  unit: Unit;
}

const unitText = (n: number, unit: Unit) => `${n} ${n === 1 ? unit.slice(0, -1) : unit}`;

/** A lifetime in the largest unit it is a whole number of ("7 days", "90 minutes"). */
function lifetimeOf(seconds: number): { amount: number; unit: Unit } {
  const unit = (['days', 'hours', 'minutes'] as const).find((u) => seconds % UNITS[u] === 0) ?? 'minutes';
  return { amount: seconds / UNITS[unit], unit };
}

function fileLinkValues(ttl: number | null): FileLinkValues {
  if (ttl === null) return { choice: 'default', amount: '', unit: 'days' };
  if (PRESETS.includes(ttl)) return { choice: String(ttl), amount: '', unit: 'days' };
  const { amount, unit } = lifetimeOf(ttl);
  return { choice: 'custom', amount: String(amount), unit };
}

/** The values as `workspaces.update` takes them; a custom amount that is no number goes as typed, for the schema to refuse. */
function toFileLinkTtl(values: FileLinkValues): { file_link_ttl: number | null } {
  if (values.choice === 'default') return { file_link_ttl: null };
  if (values.choice !== 'custom') return { file_link_ttl: Number(values.choice) };
  const amount = Number(values.amount.trim());
  return { file_link_ttl: values.amount.trim() && Number.isFinite(amount) ? Math.round(amount * UNITS[values.unit]) : (values.amount as unknown as number) };
}

const describeTtl = (ttl: number | null) => {
  if (ttl === null) return "the server's default";
  const { amount, unit } = lifetimeOf(ttl);
  return unitText(amount, unit);
};

/**
 * How long the signed download links of the workspace's files live (in webhook payloads, exports
 * and `lfk listen` events); never longer than the server's `LFK_FILE_LINK_TTL`, which wins when shorter.
 */
function FileLinksForm({ workspaceId, ttl }: { workspaceId: string; ttl: number | null }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<number | null | undefined>(undefined);
  const form = useForm<FileLinkValues, unknown, { file_link_ttl: number | null }>({
    resolver: apiResolver(workspaceUpdateInput, toFileLinkTtl, () => ['file_link_ttl'], { workspace_id: workspaceId }),
    defaultValues: fileLinkValues(ttl),
  });
  const problem = useFormProblem(['file_link_ttl'], form.setError);
  const update = useMutation({
    ...trpc.workspaces.update.mutationOptions(),
    onSuccess: async (_, input) => {
      setSaved(input.file_link_ttl);
      await queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
    },
    onError: problem.report,
  });
  const choice = form.watch('choice');
  const error = errorAt(form.formState.errors, 'file_link_ttl');
  return (
    <section aria-labelledby={`${id}-title`} className="card file-links">
      <h2 id={`${id}-title`}>File links</h2>
      <p>
        Webhook payloads, exports and <code>lfk listen</code> hand out signed links to submitted files, which work without signing in until they expire. Links
        already handed out keep the lifetime they were made with.
      </p>
      <form
        onSubmit={form.handleSubmit(
          (input) => {
            setSaved(undefined);
            problem.clear();
            update.mutate({ ...input, workspace_id: workspaceId });
          },
          () => setSaved(undefined),
        )}
        noValidate
      >
        <div className="field">
          <label htmlFor={`${id}-choice`}>File links expire after</label>
          <select id={`${id}-choice`} {...form.register('choice')} aria-describedby={`${id}-hint`}>
            <option value="default">The server's default (7 days unless its operator changed it)</option>
            {PRESETS.map((seconds) => (
              <option key={seconds} value={String(seconds)}>
                {describeTtl(seconds)}
              </option>
            ))}
            <option value="custom">Custom</option>
          </select>
          <p className="hint" id={`${id}-hint`}>
            Never longer than the server allows (<code>LFK_FILE_LINK_TTL</code>, at most {FILE_LINK_TTL.max / DAY} days): a longer choice gets the server's.
          </p>
        </div>
        {choice === 'custom' && (
          <div className="inline-form">
            <div className="field">
              <label htmlFor={`${id}-amount`}>Custom lifetime</label>
              <input
                id={`${id}-amount`}
                inputMode="decimal"
                autoComplete="off"
                {...form.register('amount')}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-unit`}>Unit</label>
              <select id={`${id}-unit`} {...form.register('unit')}>
                {Object.keys(UNITS).map((unit) => (
                  <option key={unit} value={unit}>
                    {unit}
                  </option>
                ))}
              </select>
            </div>
          </div>
        )}
        <ErrorText id={`${id}-error`} message={error} />
        <button type="submit" disabled={update.isPending}>
          Save
        </button>
      </form>
      <ProblemAlert problem={problem.problem} unplacedDetails={problem.unplaced} />
      <p role="status">{saved !== undefined ? `Saved: links made from now on expire after ${describeTtl(saved)}.` : ''}</p>
    </section>
  );
}

/**
 * Whether members need a second factor on their account to reach the workspace (owners). An owner
 * without one is not offered the switch (the server would refuse it: it would lock them out), but
 * told where to set one up.
 */
function RequireTwoFactorForm({ workspaceId, required }: { workspaceId: string; required: boolean }) {
  const id = useId();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.twoFactor.status.queryOptions());
  const [checked, setChecked] = useState(required);
  const [saved, setSaved] = useState<boolean | undefined>(undefined);
  const update = useMutation({
    ...trpc.workspaces.update.mutationOptions(),
    onSuccess: async (_, input) => {
      setSaved(input.require_two_factor);
      await queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
    },
  });
  return (
    <section aria-labelledby={`${id}-title`} className="card">
      <h2 id={`${id}-title`}>Two-factor authentication</h2>
      <p>
        When it is required, every member needs a second factor on their account (a code from an authenticator app, or a passkey) to reach this workspace. A
        member without one sees why, and where to set one up, instead of its pages; they may still leave it. API keys are unaffected: they keep working as they
        are.
      </p>
      <Loaded query={status} what="your two-factor authentication">
        {(own) =>
          !own.enabled && !required ? (
            <div className="notice">
              <p>
                Your own account has no second factor yet, and requiring one would lock you out of this workspace too.{' '}
                <Link to="/w/$workspaceId/account" params={{ workspaceId }}>
                  Set one up in your account's Security section
                </Link>{' '}
                first, then come back.
              </p>
            </div>
          ) : (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                setSaved(undefined);
                update.mutate({ workspace_id: workspaceId, require_two_factor: checked });
              }}
            >
              <div className="field checkbox">
                <input id={`${id}-required`} type="checkbox" checked={checked} onChange={(event) => setChecked(event.target.checked)} />
                <label htmlFor={`${id}-required`}>Require two-factor authentication of members</label>
              </div>
              <button type="submit" disabled={update.isPending}>
                Save
              </button>
            </form>
          )
        }
      </Loaded>
      <ProblemAlert problem={update.error ? problemOf(update.error) : null} />
      <p role="status">
        {saved === undefined
          ? ''
          : saved
            ? 'Saved: members need a second factor to reach this workspace.'
            : 'Saved: members no longer need a second factor to reach this workspace.'}
      </p>
    </section>
  );
}

/** The danger zone: deleting the workspace with all it holds, confirmed by typing its name. */
function DeleteWorkspace({ workspaceId, name }: { workspaceId: string; name: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const confirmId = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useMutation({
    ...trpc.workspaces.delete.mutationOptions(),
    onSuccess: async () => {
      queryClient.removeQueries();
      await navigate({ to: '/' });
    },
  });
  const close = () => {
    setOpen(false);
    setTyped('');
    remove.reset();
  };
  return (
    <section className="danger-zone" aria-labelledby="delete-workspace-title">
      <h2 id="delete-workspace-title">Delete this workspace</h2>
      <p>Its API keys stop working at once; its forms, their submissions and webhooks, its members and its audit log are deleted for good.</p>
      <button type="button" className="danger" onClick={() => setOpen(true)}>
        Delete workspace
      </button>
      <Dialog open={open} onClose={close} title={`Delete “${name}”?`}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            remove.mutate({ workspace_id: workspaceId, confirm: typed });
          }}
        >
          <p>This cannot be undone. Every key, form and submission of this workspace is deleted.</p>
          <div className="field">
            <label htmlFor={confirmId}>Type the workspace's name, {name}, to confirm</label>
            <input id={confirmId} value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} />
          </div>
          <ProblemAlert problem={remove.error ? problemOf(remove.error) : null} />
          <div className="actions">
            <button type="submit" className="danger" disabled={remove.isPending || typed !== name}>
              Delete workspace
            </button>
            <button type="button" className="secondary" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
    </section>
  );
}
