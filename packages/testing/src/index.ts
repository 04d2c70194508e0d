export { emailsSentTo, type LinkEmailKind, linkTokenSentTo, verificationTokenSentTo } from './email.ts';
export { expectDocumentedError, type ExpectErrorOptions, expectError, type WireError } from './errors.ts';
export { type CreatedForm, createContactForm, createForm, ORIGIN } from './forms.ts';
export { freePort } from './ports.ts';
export { type RawResponse, rawExchange } from './raw-http.ts';
export { type AnswerFrom, sendFrom } from './send-from.ts';
export { startTcpHop, type TcpHop } from './tcp-hop.ts';
export { adminQuery, databaseForProcess, ENGINE, ownDatabase, pgliteOf, sharedDatabase, TEST_DATABASE_URL, type TestDatabase } from '@lfk/db/testing';
export {
  type Account,
  PASSWORD,
  type RequestOptions,
  type Res,
  startTestServer,
  type TestServer,
  type TestServerOptions,
  useTestServer,
} from './server.ts';
export { reporterKeys, signed } from './secret-scanning.ts';
export { confirmPrintedAddress, spawnServerProcess } from './server-process.ts';
export { TEST_SECRET_KEY } from './secret-key.ts';
export {
  BROWSER_ACCEPT,
  countSubmissions,
  expectCreated,
  FORM_URLENCODED,
  type PostOptions,
  postHtmlForm,
  submit,
  submitOverTrpc,
  VALID,
} from './submitting.ts';
export { type Answer, type Received, type Receiver, startReceiver } from './receiver.ts';
export { until } from './wait.ts';
export { CAPTCHA_SECRET, CAPTCHA_SITE_KEY, type CaptchaProvider, type Siteverify, startCaptchaProvider } from './captcha-provider.ts';
