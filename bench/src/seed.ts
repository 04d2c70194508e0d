import { randomBytes } from 'node:crypto';
import { createLfkClient } from '@lfk/client';

export const PASSWORD = 'benchmark password, long enough';

export interface Seed {
  email: string;
  sessionToken: string;
  workspaceId: string;
  /** Active keys, for the load. */
  keys: { id: string; key: string }[];
  /** A key that was revoked. */
  revokedKey: string;
  /** A claimed form, read by scenario 1. */
  formId: string;
  /** An `api_key`-mode form, submitted to by scenario 4; each submission notifies its verified address. */
  apiKeyFormId: string;
  /** An `api_key`-mode form that notifies nobody and has no webhook: scenario 8's keyed submissions. */
  quietFormId: string;
  /** A browser-mode form taking posts from `BROWSER_ORIGIN`, with a honeypot and a redirect: scenario 8's form posts. */
  browserFormId: string;
}

/** The site scenario 8's browser form takes posts from. */
export const BROWSER_ORIGIN = 'https://shop.example';

/**
 * A person, their workspace, keys and forms, made through lfk's own typed client as a customer
 * would make them.
 */
export async function seed(
  server: { url: string; verifyNotify(formId: string): Promise<void>; confirmAccount(email: string): Promise<void> },
  activeKeys: number,
): Promise<Seed> {
  const url = server.url;
  const email = `bench-${randomBytes(6).toString('hex')}@example.com`;
  const anonymous = createLfkClient({ baseUrl: url });
  const signedUp = await anonymous.auth.signup.mutate({ email, password: PASSWORD });
  await server.confirmAccount(email);
  const owner = createLfkClient({ baseUrl: url, sessionToken: signedUp.session_token });
  const workspaceId = signedUp.workspace.id;
  const newKey = () => owner.apiKeys.create.mutate({ workspace_id: workspaceId, name: 'bench' });

  const revoked = await newKey();
  await owner.apiKeys.revoke.mutate({ workspace_id: workspaceId, key_id: revoked.id });
  const keys: Seed['keys'] = [];
  for (let i = 0; i < activeKeys; i++) {
    const created = await newKey();
    keys.push({ id: created.id, key: created.key });
  }

  const withKey = createLfkClient({ baseUrl: url, apiKey: keys[0]!.key });
  const schema = [
    { name: 'email', type: 'email' as const, required: true },
    { name: 'message', type: 'textarea' as const },
  ];
  const form = await withKey.forms.create.mutate({ name: 'Contact', schema });
  const apiKeyForm = await withKey.forms.create.mutate({
    name: 'Orders',
    schema,
    submission_mode: 'api_key',
    notify_email: 'orders@example.org',
  });
  await server.verifyNotify(apiKeyForm.id);
  const quietForm = await withKey.forms.create.mutate({ name: 'Orders, quietly', schema, submission_mode: 'api_key' });
  const browserForm = await withKey.forms.create.mutate({
    name: 'Newsletter',
    schema,
    allowed_origins: [BROWSER_ORIGIN],
    redirect_url: `${BROWSER_ORIGIN}/thanks`,
    spam: { honeypot: '_gotcha' },
  });
  return {
    email,
    sessionToken: signedUp.session_token,
    workspaceId,
    keys,
    revokedKey: revoked.key,
    formId: form.id,
    apiKeyFormId: apiKeyForm.id,
    quietFormId: quietForm.id,
    browserFormId: browserForm.id,
  };
}

/** A well-formed key whose checksum is wrong: refused by format alone. */
export function withBadChecksum(key: string): string {
  const last = key.at(-1) === 'a' ? 'b' : 'a';
  return `${key.slice(0, -1)}${last}`;
}
