import { zodResolver } from '@hookform/resolvers/zod';
import { text } from '@lfk/api/schemas';
import type { RouterOutputs } from '@lfk/client';
import { MAX_PASSKEYS, TEXT_LIMITS } from '@lfk/vocabulary';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { passkeysWorkHere, makePasskey } from '../../api/passkeys.ts';
import type { Problem } from '../../api/problems.ts';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { Time } from '../../components/time.tsx';
import { LEAVE_CODES, RecoveryCodesOnce } from './recovery-codes-once.tsx';

type Status = RouterOutputs['twoFactor']['status'];
type Passkey = Status['passkeys'][number];
type Added = RouterOutputs['twoFactor']['addPasskey'];

/** A passkey's name, held to the API's rule. */
const nameFields = z.object({ name: text(TEXT_LIMITS.passkeyName) });

/** The name field takes the focus once its dialog has opened (the opening focuses the dialog's first button). */
function useFocusName(form: { setFocus: (name: 'name', options?: { shouldSelect: boolean }) => void }) {
  useEffect(() => {
    const frame = requestAnimationFrame(() => form.setFocus('name', { shouldSelect: true }));
    return () => cancelAnimationFrame(frame);
  }, [form]);
}

interface PasskeysProps {
  status: Status;
  /** Reads the account's factors again. */
  refresh: () => Promise<unknown>;
  /** Says what was done, in the section's status line. */
  say: (words: string) => void;
  /** A first second factor signed the other sessions out: their list is out of date. */
  onSessionsChanged: () => Promise<unknown>;
}

/**
 * The account's passkeys: listed (name, added, last used), added (a name, then the browser's
 * ceremony; a first factor's recovery codes shown once), renamed and removed. Adding and removing
 * are sudo mode's: the dashboard asks the person to confirm it's them first when it must.
 */
export function Passkeys({ status, refresh, say, onSessionsChanged }: PasskeysProps) {
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const remove = useMutation({
    ...trpc.twoFactor.removePasskey.mutationOptions(),
    onSuccess: async (_answer, { passkey_id }) => {
      const name = status.passkeys.find((p) => p.id === passkey_id)?.name ?? '';
      say(`The passkey “${name}” is removed: it signs you in no more.`);
      setRemoving(null);
      await refresh();
    },
  });
  const closeRemoving = () => {
    remove.reset();
    setRemoving(null);
  };
  const works = passkeysWorkHere();
  const full = status.passkeys.length >= MAX_PASSKEYS;
  /** Removing this one leaves the account with no second factor. */
  const removingLast = !status.totp.enabled && status.passkeys.length === 1;

  const columns: Column<Passkey>[] = [
    { label: 'Name', typed: true, cell: (p) => p.name },
    { label: 'Added', cell: (p) => <Time iso={p.created_at} /> },
    { label: 'Last used', cell: (p) => <Time iso={p.last_used_at} never="Never" /> },
    {
      label: 'Actions',
      labelHidden: true,
      cell: (p) => (
        <span className="row-actions">
          <button type="button" className="secondary small" onClick={() => setRenaming(p)}>
            Rename<span className="visually-hidden"> {p.name}</span>
          </button>
          <button type="button" className="danger small" onClick={() => setRemoving(p)}>
            Remove<span className="visually-hidden"> {p.name}</span>
          </button>
        </span>
      ),
    },
  ];

  return (
    <>
      <h3 className="subheading">Passkeys</h3>
      <p>
        A passkey lives on your device (your phone, your computer, a security key), unlocked by your fingerprint, face or PIN. It signs you in without your
        password, and after your password it is a second factor.
      </p>
      {status.passkeys.length > 0 && <DataTable caption="Your passkeys" columns={columns} rows={status.passkeys} rowKey={(p) => p.id} />}
      {!works ? (
        <NoPasskeysHere />
      ) : full ? (
        <p className="hint">You have {MAX_PASSKEYS} passkeys, the most an account can have: remove one to add another.</p>
      ) : (
        <div className="actions">
          <button
            type="button"
            className={status.passkeys.length > 0 ? 'secondary' : undefined}
            onClick={() => {
              say('');
              setAdding(true);
            }}
          >
            Add a passkey
          </button>
        </div>
      )}

      <AddPasskeyDialog
        open={adding}
        onAdded={async ({ passkey, recovery_codes }) => {
          say(
            recovery_codes
              ? `The passkey “${passkey.name}” is added: signing in asks for it after your password, or signs you in with it alone. ` +
                  'Your other sessions were signed out.'
              : `The passkey “${passkey.name}” is added.`,
          );
          await Promise.all([refresh(), recovery_codes ? onSessionsChanged() : null]);
        }}
        onClose={() => setAdding(false)}
      />
      <RenamePasskeyDialog
        passkey={renaming}
        onRenamed={async (renamed) => {
          setRenaming(null);
          say(`The passkey is renamed “${renamed.name}”.`);
          await refresh();
        }}
        onClose={() => setRenaming(null)}
      />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove the passkey “${removing?.name ?? ''}”?`}
        confirmLabel="Remove passkey"
        onConfirm={() => removing && remove.mutate({ passkey_id: removing.id })}
        onClose={closeRemoving}
        pending={remove.isPending}
        error={remove.error}
      >
        <p>
          It signs you in no more.{' '}
          {removingLast
            ? 'It is your only second factor: signing in will ask for your password only, and your recovery codes stop working.'
            : 'Your other second factors keep working.'}{' '}
          Your device may keep it until you delete it there too.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** Why this page offers no passkey, and where one would work. */
function NoPasskeysHere() {
  const { hostname, port, protocol, pathname } = window.location;
  const atLocalhost = `${protocol}//localhost${port ? `:${port}` : ''}`;
  if (typeof window.PublicKeyCredential !== 'function' && !/^\d|^\[/.test(hostname)) {
    return (
      <p className="notice">This browser cannot use passkeys on this page: they need a secure connection (https), or the dashboard opened at localhost.</p>
    );
  }
  return (
    <p className="notice">
      Passkeys need the dashboard at a domain name, and this page is at an IP address ({hostname}), which browsers refuse for them.{' '}
      {/* Where passkeys work instead: */}
      On this machine, open it at <a href={`${atLocalhost}${pathname}`}>{atLocalhost}</a> (sign in there again); a server whose <code>LFK_PUBLIC_URL</code> is
      set takes passkeys at that address only.
    </p>
  );
}

/** A passkey made too long after its options, or with other ones: what to do. */
function explainAddProblem(problem: Problem) {
  if (problem.code === 'enrolment_not_found' || problem.code === 'invalid_second_factor') return 'Try again: your browser asks your device anew.';
  return null;
}

interface AddPasskeyDialogProps {
  open: boolean;
  /** Added: the passkey, and the recovery codes when it is the account's first second factor. */
  onAdded: (added: Added) => Promise<void>;
  onClose: () => void;
}

/** A name, then the browser's ceremony; then, for a first second factor, the recovery codes that came with it, shown once. */
function AddPasskeyDialog({ open, onAdded, onClose }: AddPasskeyDialogProps) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const close = () => {
    setCodes(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={codes ? 'Your recovery codes' : 'Add a passkey'} leaveWarning={codes ? LEAVE_CODES : undefined}>
      {codes ? (
        <>
          <p>Two-factor authentication is on. Your other sessions were signed out.</p>
          <RecoveryCodesOnce codes={codes} onDone={close} />
        </>
      ) : (
        <AddPasskeyForm
          onAdded={async (added) => {
            await onAdded(added);
            if (added.recovery_codes) setCodes(added.recovery_codes);
            else close();
          }}
          onCancel={close}
        />
      )}
    </Dialog>
  );
}

function AddPasskeyForm({ onAdded, onCancel }: { onAdded: (added: Added) => Promise<void>; onCancel: () => void }) {
  const form = useForm({ resolver: zodResolver(nameFields), defaultValues: { name: '' } });
  const problem = useFormProblem(['name'], form.setError);
  useFocusName(form);
  const add = useMutation({
    // The options (sudo mode's), the device makes the passkey with them, and the server checks and keeps it.
    mutationFn: async (name: string) => {
      const { options } = await trpcClient.twoFactor.passkeyOptions.mutate();
      const credential = await makePasskey(options);
      return trpcClient.twoFactor.addPasskey.mutate({ name, credential });
    },
    onSuccess: onAdded,
    onError: problem.report,
  });
  return (
    <SubmitForm
      onSubmit={form.handleSubmit(({ name }) => {
        problem.clear();
        add.mutate(name);
      })}
      problem={problem}
      explain={explainAddProblem}
      submitLabel="Add passkey"
      pending={add.isPending}
      onCancel={onCancel}
    >
      <TextField
        form={form}
        name="name"
        label="Name"
        autoComplete="off"
        hint={
          'To tell it from your others, such as “MacBook Touch ID” or “YubiKey”. Next, your browser asks your device to make it. ' +
          'If it is your first second factor, your other sessions are signed out.'
        }
      />
    </SubmitForm>
  );
}

interface RenamePasskeyDialogProps {
  passkey: Passkey | null;
  onRenamed: (renamed: Passkey) => Promise<void>;
  onClose: () => void;
}

function RenamePasskeyDialog({ passkey, onRenamed, onClose }: RenamePasskeyDialogProps) {
  return (
    <Dialog open={passkey !== null} onClose={onClose} title="Rename the passkey">
      {passkey && <RenamePasskeyForm passkey={passkey} onRenamed={onRenamed} onCancel={onClose} />}
    </Dialog>
  );
}

function RenamePasskeyForm({ passkey, onRenamed, onCancel }: { passkey: Passkey; onRenamed: (renamed: Passkey) => Promise<void>; onCancel: () => void }) {
  const form = useForm({ resolver: zodResolver(nameFields), defaultValues: { name: passkey.name } });
  const problem = useFormProblem(['name'], form.setError);
  useFocusName(form);
  const rename = useMutation({
    ...trpc.twoFactor.renamePasskey.mutationOptions(),
    onSuccess: onRenamed,
    onError: problem.report,
  });
  return (
    <SubmitForm
      onSubmit={form.handleSubmit(({ name }) => {
        problem.clear();
        rename.mutate({ passkey_id: passkey.id, name });
      })}
      problem={problem}
      submitLabel="Rename"
      pending={rename.isPending}
      onCancel={onCancel}
    >
      <TextField form={form} name="name" label="Name" autoComplete="off" />
    </SubmitForm>
  );
}
