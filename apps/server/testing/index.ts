// The server's test harness: a real server on the worker's database (server.ts), the real process
// (server-process.ts), and forms and submissions made over HTTP. It lives here, not in
// @lfk/testing, so that no package imports the server above it; it re-exports what needs no server.
export * from '@lfk/testing';
export { type CreatedForm, createContactForm, createForm, ORIGIN } from './forms.ts';
export {
  type Account,
  PASSWORD,
  type RequestOptions,
  startTestServer,
  type TestServer,
  type TestServerOptions,
  useTestServer,
} from './server.ts';
export { confirmPrintedAddress, spawnServerProcess } from './server-process.ts';
export {
  BROWSER_ACCEPT,
  countSubmissions,
  expectCreated,
  FORM_URLENCODED,
  multipartBody,
  type Part,
  type PostOptions,
  postHtmlForm,
  storedObjects,
  submit,
  submitMultipart,
  submitOverTrpc,
  VALID,
} from './submitting.ts';
