import { SecretOnce } from '../../components/secret-once.tsx';

/** What Escape and the close button ask while recovery codes are shown. */
export const LEAVE_CODES = 'Close without the recovery codes? They are shown only now: once this closes, nobody can see them again.';

/** Recovery codes, shown this once (as a key is): after a first second factor, or made on request. */
export function RecoveryCodesOnce({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <SecretOnce
      warning={
        <>
          <strong>Save these codes now. You will not see them again:</strong> lfk keeps only their hashes. Each signs you in once if you lose your second factor
          (your authenticator app or your passkeys); the earlier ones, if any, work no more.
        </>
      }
      label="Recovery codes"
      value={codes.join('\n')}
      multiline
      hint="Keep them somewhere safe, apart from your password. To use one, sign in and choose “Use a recovery code instead”."
      doneLabel="I have saved them"
      onDone={onDone}
    />
  );
}
