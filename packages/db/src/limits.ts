/**
 * The lengths, in characters, of the text columns that hold what people and callers send. The
 * entities declare their columns with these and the API's schemas take their limits from here, so
 * a value the API accepts always fits where it is stored.
 */
export const TEXT_LIMITS = {
  email: 254,
  userName: 100,
  workspaceName: 100,
  projectName: 100,
  apiKeyName: 64,
  formName: 200,
  url: 2048,
  idempotencyKey: 255,
  idempotencyScope: 80,
  emailSubject: 300,
} as const;
