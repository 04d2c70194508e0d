import { SecretOnce } from '../../components/secret-once.tsx';

/** The signing secret, once: from creating, rotating or revealing, kept only in the dialog that shows it. */
export function SigningSecret({ secret, note, onDone }: { secret: string; note: string; onDone: () => void }) {
  return (
    <SecretOnce
      warning={
        <>
          <strong>Copy this signing secret now.</strong> {note}
        </>
      }
      label="Signing secret"
      value={secret}
      hint={
        <>
          Verify each request with it: <code>verifyWebhook(secret, headers, rawBody)</code> from <code>@lfk/client</code>, or any Standard Webhooks library.
        </>
      }
      onDone={onDone}
    />
  );
}
