/** Six digits, spaces allowed ("123 456"), as an authenticator app shows them; the API takes them so. */
export const isAuthenticatorCode = (typed: string): boolean => /^\d{6}$/.test(typed.replace(/\s/g, ''));

/** What a field says of anything else. */
export const AUTHENTICATOR_CODE_HINT = 'Must be the 6 digits the authenticator app shows.';
