import type { RouterOutputs } from '@lfk/client';
import { RECOVERY_CODE_COUNT } from '@lfk/vocabulary';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { type Problem, problemOf } from '../../api/problems.ts';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { AuthenticatorCodeField } from '../../components/authenticator-code-field.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { CopyButton } from '../../components/copy-button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { Loaded } from '../../components/states.tsx';
import { SubmitForm } from '../../components/submit-form.tsx';
import { Time } from '../../components/time.tsx';
import { Passkeys } from './passkeys.tsx';
import { QrCode } from './qr-code.tsx';
import { LEAVE_CODES, RecoveryCodesOnce } from './recovery-codes-once.tsx';

type Status = RouterOutputs['twoFactor']['status'];
type Enrolment = RouterOutputs['twoFactor']['startTotp'];

/** The secret as people read and type it: groups of four ("ABCD EFGH …"); apps take it with the spaces or without. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** A setup that waited too long: what to do about it. */
function explainSetupProblem(problem: Problem) {
  return problem.code === 'enrolment_not_found' ? 'Close this, then set up the app again: you get a new QR code.' : null;
}

/**
 * The account's second factors: an authenticator app, set up with a QR code and a first code,
 * turned off; its passkeys (passkeys.tsx), added with the browser, renamed, removed; and its
 * recovery codes, shown once when made. Each change but the first code's confirmation is sudo mode's: the
 * dashboard asks the person to confirm it's them first when it must (api/reauthentication.ts).
 */
export function SecuritySection() {
  const queryClient = useQueryClient();
  const status = useQuery(trpc.twoFactor.status.queryOptions());
  const [said, setSaid] = useState('');
  /** The app being set up: its secret lives only here, in the dialog's state, until it closes. */
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  /** Recovery codes made on request, shown once (the setup's own are shown in its dialog). */
  const [codes, setCodes] = useState<string[] | null>(null);
  const [asking, setAsking] = useState<'disable' | 'regenerate' | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.twoFactor.status.pathFilter());

  const start = useMutation({
    // The secret goes straight to the dialog; the mutation keeps nothing of it.
    mutationFn: async () => {
      setEnrolment(await trpcClient.twoFactor.startTotp.mutate());
    },
  });
  const disable = useMutation({
    ...trpc.twoFactor.disableTotp.mutationOptions(),
    onSuccess: async () => {
      setAsking(null);
      setSaid('Your authenticator app is turned off.');
      await refresh();
    },
  });
  const regenerate = useMutation({
    mutationFn: async () => {
      const { recovery_codes } = await trpcClient.twoFactor.regenerateRecoveryCodes.mutate();
      setAsking(null);
      setCodes(recovery_codes);
    },
    onSettled: refresh,
  });
  const closeAsking = () => {
    disable.reset();
    regenerate.reset();
    setAsking(null);
  };

  const hasPasskeys = (status.data?.passkeys.length ?? 0) > 0;
  return (
    <section aria-labelledby="security-title" className="card">
      <h2 id="security-title">Security</h2>
      <Loaded query={status} what="your two-factor authentication">
        {(s) => (
          <>
            <h3 className="subheading">Two-factor authentication</h3>
            {s.enabled ? (
              <p>
                <span className="badge badge-active">On</span> Signing in asks for your password and a second factor:{' '}
                {[s.totp.enabled ? 'a code from your authenticator app' : null, s.passkeys.length > 0 ? 'a passkey' : null].filter(Boolean).join(' or ')}.
                {s.passkeys.length > 0 && ' A passkey also signs you in on its own, without your password.'}
              </p>
            ) : (
              <p>
                <span className="badge badge-pending">Off</span> Signing in asks for your password only. Turned on, it also asks for a code from an
                authenticator app on your phone (such as 1Password, Google Authenticator or Authy), or for a passkey.
              </p>
            )}

            <h3 className="subheading">Authenticator app</h3>
            {s.totp.enabled ? (
              <>
                <p>
                  Set up <Time iso={s.totp.enabled_at} />.
                </p>
                <div className="actions">
                  <button type="button" className="danger" onClick={() => setAsking('disable')}>
                    Turn off
                  </button>
                </div>
              </>
            ) : (
              <div className="actions">
                <button
                  type="button"
                  disabled={start.isPending}
                  onClick={() => {
                    setSaid('');
                    start.mutate();
                  }}
                >
                  Set up an authenticator app
                </button>
              </div>
            )}
            <ProblemAlert problem={start.error ? problemOf(start.error) : null} />

            <Passkeys status={s} refresh={refresh} say={setSaid} onSessionsChanged={() => queryClient.invalidateQueries(trpc.auth.sessions.pathFilter())} />

            {s.enabled && <RecoveryCodes status={s} onRegenerate={() => setAsking('regenerate')} />}
          </>
        )}
      </Loaded>
      <p role="status">{said}</p>

      <SetUpDialog
        enrolment={enrolment}
        onEnabled={async () => {
          setSaid('Your authenticator app is set up: signing in asks for its code. Your other sessions were signed out.');
          await Promise.all([refresh(), queryClient.invalidateQueries(trpc.auth.sessions.pathFilter())]);
        }}
        onClose={() => setEnrolment(null)}
      />
      <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />
      <ConfirmDialog
        open={asking === 'disable'}
        title="Turn off the authenticator app?"
        confirmLabel="Turn off"
        onConfirm={() => disable.mutate()}
        onClose={closeAsking}
        pending={disable.isPending}
        error={disable.error}
      >
        <p>
          {hasPasskeys
            ? 'Signing in will ask for a passkey instead of a code from the app.'
            : 'Signing in will ask for your password only, and your recovery codes stop working.'}{' '}
          You can set up an authenticator app again at any time.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'regenerate'}
        title="Make new recovery codes?"
        confirmLabel="Make new codes"
        onConfirm={() => regenerate.mutate()}
        onClose={closeAsking}
        pending={regenerate.isPending}
        error={regenerate.error}
      >
        <p>Your current recovery codes stop working, used or not. You see the {RECOVERY_CODE_COUNT} new ones once, next.</p>
      </ConfirmDialog>
    </section>
  );
}

/** How many recovery codes are left, and a way to make new ones. */
function RecoveryCodes({ status, onRegenerate }: { status: Status; onRegenerate: () => void }) {
  const left = status.recovery_codes.remaining;
  return (
    <>
      <h3 className="subheading">Recovery codes</h3>
      <p>
        {left} of {RECOVERY_CODE_COUNT} left. Each signs you in once, in place of your second factor, if you lose it.
      </p>
      {left <= 3 && (
        <div className="alert alert-warning">
          <p>
            {left === 0 ? 'No recovery codes are left:' : `Only ${left} recovery code${left === 1 ? ' is' : 's are'} left:`} make new ones, in case you lose
            your phone.
          </p>
        </div>
      )}
      <div className="actions">
        <button type="button" className="secondary" onClick={onRegenerate}>
          Make new recovery codes
        </button>
      </div>
    </>
  );
}

interface SetUpDialogProps {
  enrolment: Enrolment | null;
  /** The first code was right: the app is a second factor now. */
  onEnabled: () => Promise<void>;
  /** Closed: before a right code nothing was turned on; after it, the recovery codes were shown. */
  onClose: () => void;
}

/**
 * The QR code and the secret, then a first code from the app: until that code, nothing is on.
 * Then, in the same dialog, the recovery codes that came with it, shown once.
 */
function SetUpDialog({ enrolment, onEnabled, onClose }: SetUpDialogProps) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const close = () => {
    setCodes(null);
    onClose();
  };
  return (
    <Dialog
      open={enrolment !== null}
      onClose={close}
      title={codes ? 'Your recovery codes' : 'Set up an authenticator app'}
      leaveWarning={codes ? LEAVE_CODES : undefined}
    >
      {codes ? (
        <>
          <p>Two-factor authentication is on. Your other sessions were signed out.</p>
          <RecoveryCodesOnce codes={codes} onDone={close} />
        </>
      ) : (
        enrolment && (
          <SetUpSteps
            enrolment={enrolment}
            onEnabled={async (recoveryCodes) => {
              await onEnabled();
              // The account's first factor comes with its recovery codes; otherwise there is nothing more to show.
              if (recoveryCodes) setCodes(recoveryCodes);
              else close();
            }}
            onCancel={close}
          />
        )
      )}
    </Dialog>
  );
}

interface SetUpStepsProps {
  enrolment: Enrolment;
  onEnabled: (recoveryCodes: string[] | null) => Promise<void>;
  onCancel: () => void;
}

function SetUpSteps({ enrolment, onEnabled, onCancel }: SetUpStepsProps) {
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const problem = useFormProblem(['code'], form.setError, { invalid_second_factor: 'code' });
  const confirm = useMutation({
    mutationFn: async (code: string) => {
      const { recovery_codes } = await trpcClient.twoFactor.confirmTotp.mutate({ code });
      await onEnabled(recovery_codes);
    },
    onError: problem.report,
  });
  return (
    <ol className="steps">
      <li>
        <p>Scan this QR code with your authenticator app.</p>
        <QrCode text={enrolment.otpauth_url} label="QR code to set up your authenticator app" />
      </li>
      <li>
        <p>Or, if you cannot scan it, type this setup key into the app, with or without its spaces:</p>
        <div className="secret-row">
          <code className="totp-secret" translate="no">
            {grouped(enrolment.secret)}
          </code>
          <CopyButton text={enrolment.secret} label="Copy key" />
        </div>
      </li>
      <li>
        <p>Type the 6-digit code the app now shows for lfk.</p>
        <SubmitForm
          onSubmit={form.handleSubmit(({ code }) => {
            problem.clear();
            confirm.mutate(code);
          })}
          problem={problem}
          explain={explainSetupProblem}
          submitLabel="Turn on"
          pending={confirm.isPending}
          onCancel={onCancel}
        >
          <AuthenticatorCodeField
            form={form}
            name="code"
            hint={
              <>
                Once it is on, your other sessions are signed out. This setup expires <Time iso={enrolment.expires_at} />.
              </>
            }
          />
        </SubmitForm>
      </li>
    </ol>
  );
}

/** New recovery codes, made on request: shown this once, as a key is. */
function RecoveryCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  return (
    <Dialog open={codes !== null} onClose={onClose} title="Your new recovery codes" leaveWarning={LEAVE_CODES}>
      {codes && <RecoveryCodesOnce codes={codes} onDone={onClose} />}
    </Dialog>
  );
}
