/**
 * Path parameters for tests that reach every route of the REST table: a route's path with its
 * parameters filled in, and ids of the right shape that name nothing (a request that gets past
 * what a test checks then changes nothing).
 */

export const UNKNOWN_IDS: Readonly<Record<string, string>> = {
  workspace_id: 'ws_00000000000000000000000000',
  form_id: 'form_00000000000000000000000000',
  key_id: 'key_00000000000000000000000000',
  user_id: 'usr_00000000000000000000000000',
  webhook_id: 'wh_00000000000000000000000000',
  delivery_id: 'whd_00000000000000000000000000',
  secret_number: '999999',
  submission_id: 'sub_00000000000000000000000000',
  session_id: 'ses_00000000000000000000000000',
  invitation_id: 'inv_00000000000000000000000000',
  file_id: 'file_00000000000000000000000000',
  passkey_id: 'pkey_00000000000000000000000000',
  token: `lfi_${'0'.repeat(43)}`,
  resume_token: `lfp_${'0'.repeat(43)}`,
  user_code: 'BCDF-GHJK',
};

/** `path` (Fastify syntax, `:name`) with each parameter from `params`, encoded; a missing one throws. */
export function urlOf(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(value);
  });
}
