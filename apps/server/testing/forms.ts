import type { TestServer } from './server.ts';

/** The origin the suites' browser forms accept. */
export const ORIGIN = 'https://shop.example';

/** A form as `POST /v1/forms` answers it: the fields the suites read. */
export interface CreatedForm {
  id: string;
  state: string;
  submission_mode: string;
  unknown_fields: string;
  redirect_url: string | null;
  notify_emails: string[];
  notified_addresses: string[];
  notifications_to: string | null;
  claim_token?: string;
  schema: unknown[];
  spam_filter: { enabled: boolean; threshold: number };
}

/** `POST /v1/forms` with `body`, as `token` (a session or a key) or anonymously; throws unless 201. */
export async function createForm(server: TestServer, token: string | undefined, body: Record<string, unknown>): Promise<CreatedForm> {
  const res = await server.request('POST', '/v1/forms', { ...(token ? { token } : {}), body });
  if (res.status !== 201) throw new Error(`form create failed: ${res.status} ${res.body}`);
  return res.json;
}

/** A claimed browser-mode contact form taking `VALID` from `ORIGIN`, made with `who`'s session in its workspace. */
export function createContactForm(
  server: TestServer,
  who: { token: string; workspaceId: string },
  overrides: Record<string, unknown> = {},
): Promise<CreatedForm> {
  return createForm(server, who.token, {
    name: 'Contact',
    schema: [
      { name: 'name', type: 'text', required: true },
      { name: 'email', type: 'email', required: true },
      { name: 'message', type: 'textarea' },
    ],
    allowed_origins: [ORIGIN],
    workspace_id: who.workspaceId,
    ...overrides,
  });
}
