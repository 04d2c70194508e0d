/**
 * The hostile-input tables' vocabulary (test-only: nothing the package runs imports it). Each feature
 * declares, in `features/<f>/<f>.hostile-cases.ts`, every body route of its folder with a caller and a
 * valid body (`BodyCase`), naming the world below; `index.ts` folds them into one table. The server's
 * suite (apps/server/test/hostile-input/) makes that world before its cases run and binds it here.
 */
import { type ProcedurePath, restRoutes } from '../rest-routes.ts';
import { type SeededAccount, TEST_PASSWORD } from '../testing.ts';

export const PASSWORD = TEST_PASSWORD;

/** The world every case acts in; its accounts, keys and forms are made by the suite (`bindHostileWorld`). */
export interface HostileWorld {
  owner: SeededAccount;
  member: SeededAccount;
  outsider: SeededAccount;
  /** Only ever the subject of invitation bodies (and the caller of account deletes that are refused), so a wrongly accepted one disturbs nothing else. */
  stranger: SeededAccount;
  key: string;
  keyId: string;
  formId: string;
  outsiderKeyId: string;
  /** An unclaimed form and its claim token. */
  unclaimed: { id: string; claimToken: string };
  /** A browser-mode form that takes submissions from ORIGIN. */
  openFormId: string;
  /** A form of W with one webhook endpoint (`webhookId`), to a name that never resolves; nothing submits to it. */
  hookFormId: string;
  webhookId: string;
}

export let owner: SeededAccount;
export let member: SeededAccount;
export let outsider: SeededAccount;
export let stranger: SeededAccount;
export let key: string;
export let keyId: string;
export let formId: string;
export let outsiderKeyId: string;
export let unclaimed: { id: string; claimToken: string };
export let openFormId: string;
export let hookFormId: string;
export let webhookId: string;

/** Binds the world the suite made, before its cases run (a case reads it when it runs, never when it is declared). */
export function bindHostileWorld(world: HostileWorld): void {
  ({ owner, member, outsider, stranger, key, keyId, formId, outsiderKeyId, unclaimed, openFormId, hookFormId, webhookId } = world);
}

export const ORIGIN = 'https://site.example';
export const WEBHOOK_URL = 'https://hooks.lfk.invalid/hostile';

export const formBody = { name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }] };

export interface BodyCase {
  url: () => string;
  token: () => string | undefined;
  valid: () => Record<string, unknown>;
  /** Whether an empty body is a valid input (every field optional). */
  emptyOk: boolean;
  /** A body with one unknown field. */
  unknown: () => Record<string, unknown>;
  /** The field that takes a person's text, if any, for the string checks. */
  textField?: string;
  /** A field that takes any characters (a password), but whole ones: a lone surrogate there is refused. */
  anyCharacters?: string;
  /** No text, but bytes written in an encoding (WebAuthn's base64url): the body with `value` at `path`, which any other character makes a 400 naming it. */
  encoded?: { path: string; body: (value: string) => Record<string, unknown> };
  /** A body with no text and no email: a lone surrogate where a string goes, and what it answers (it names nothing). */
  noText?: { body: () => Record<string, unknown>; answer: unknown };
}

/** A feature's cases, by the procedure of each of its body routes. */
export type HostileCases = Partial<Record<ProcedurePath, BodyCase>>;

let emailCounter = 0;
export const freshEmail = () => `hostile${++emailCounter}-${Date.now()}@example.com`;

/** The shapes of what a browser's WebAuthn calls answer, signed by nothing: refused after validation. */
export const FAKE_ASSERTION = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA', userHandle: 'AAAA' },
  clientExtensionResults: {},
};
export const FAKE_REGISTRATION = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'AAAA', transports: ['internal'] },
  clientExtensionResults: {},
};

// The submission route takes form posts and validates against each form's own schema: its
// hostile input has its own section (apps/server/test/hostile-input/).
// A roll succeeds once per key (then 409), and has no text field: its hostile bodies are in apps/server/test/keys/roll.test.ts.
// A page's routes (`browser`: drafts) carry a visitor's values, as submissions do: theirs are in apps/server/test/forms/drafts.test.ts.
export const bodyRoutes = restRoutes.filter((r) => r.from === 'body' && !r.transport && r.procedure !== 'apiKeys.roll');
