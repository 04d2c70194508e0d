/**
 * lfk as someone outside this repository gets it. Packs `@lfk/client`, `@lfk/react`, the kit
 * (`@lfk/browser`) and the CLI, starts a real server (embedded database in a temporary folder, an ephemeral port), then
 *  - installs the client's tarball into a fresh project in a temporary folder, type-checks a small
 *    program under a strict NodeNext tsconfig and runs it: sign up, key create, form create (with
 *    an Idempotency-Key), a submission with a file and its download, revoke, and the 401 caught by its code;
 *  - installs the CLI's tarball with `npm install -g --prefix` and runs `lfk --help` and the same flow
 *    (the file sent with `submissions create --file` and read back with `submissions download`);
 *  - installs `@lfk/react`'s tarball beside the client's, with React, type-checks a TSX program
 *    and runs it: a form's description read and the form rendered to HTML on the server;
 *  - installs the kit's tarball: one file, the script the server serves.
 * Nothing waits on a clock: the server is awaited on its ready line and `/readyz`.
 * Run with `npm run test:consumers` (npm scripts run on the repository's Node).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const REPO = join(import.meta.dirname, '..');
const PASSWORD = 'a long consumer password';

/** This environment without what `npm run` adds (npm_config_local_prefix would make npm think it is still in the repository). */
const OUTSIDE_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; with `check`, a non-zero exit throws with everything it printed. */
async function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; check?: boolean } = {},
): Promise<Result> {
  const child = spawn(command, args, { cwd: options.cwd ?? REPO, env: options.env ?? OUTSIDE_ENV, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(options.input ?? '');
  const [code] = (await once(child, 'close')) as [number | null];
  if (options.check !== false && code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
  }
  return { code, stdout, stderr };
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`consumer check failed: ${message}`);
}

/** `npm pack` of a workspace package (its prepack builds it); answers the tarball's path. */
async function pack(workspace: string, destination: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], { cwd: join(REPO, workspace) });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  assert(packed, `npm pack of ${workspace} answered nothing`);
  const outsideBuild = packed.files.map((f) => f.path).filter((path) => !/^(dist\/|bin\/|package\.json$|README|LICENSE)/.test(path));
  assert(outsideBuild.length === 0, `${workspace}'s tarball holds more than its build: ${outsideBuild.join(', ')}`);
  return join(destination, packed.filename);
}

interface RunningServer {
  baseUrl: string;
  /** Everything the server printed so far: without SMTP, its emails are in there. */
  printed(): string;
  stop(): Promise<void>;
}

/** The repository's server on an ephemeral port, with its embedded database in `dataDir`. */
async function startServer(dataDir: string, dashboardDir: string): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, [join(REPO, 'apps/server/src/main.ts')], {
    cwd: REPO,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: '0',
      LFK_DATA_DIR: dataDir,
      LFK_DASHBOARD_DIR: dashboardDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the server exited (${code}) before it was ready\n${stderr}`);
  });
  const ready = (async () => {
    for await (const line of createInterface({ input: child.stdout! })) {
      const entry = JSON.parse(line) as { msg?: string; address?: string };
      if (entry.msg === 'lfk is ready' && entry.address) return entry.address;
    }
    throw new Error(`the server closed its output before it was ready\n${stderr}`);
  })();
  const baseUrl = await Promise.race([ready, exited]);
  exited.catch(() => {}); // from here on, its exit is the one stop() asks for
  // Ready to listen is not yet ready to serve: /readyz says when the database answers.
  while ((await fetch(`${baseUrl}/readyz`).catch(() => null))?.status !== 200) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    printed: () => stdout,
    async stop() {
      if (child.exitCode !== null) return;
      const stopped = once(child, 'exit');
      child.kill('SIGTERM');
      await stopped;
    },
  };
}

/**
 * Confirms the address of the account signed up after `since` characters of the server's output, as
 * its person would: the link the server printed (no SMTP here), then its "Verify" button. Keys need
 * a confirmed address.
 */
async function confirmAddress(server: RunningServer, since: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let token: string | undefined;
  while (!(token = /\/v1\/email-verifications\/(lfv_[0-9A-Za-z]+)/.exec(server.printed().slice(since))?.[1])) {
    assert(Date.now() < deadline, `no confirmation link was printed:\n${server.printed().slice(since)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const confirmed = await fetch(`${server.baseUrl}/v1/email-verifications/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert(confirmed.status === 200, `confirming the address answered ${confirmed.status}`);
}

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: 'nodenext',
    target: 'es2023',
    outDir: 'out',
    types: ['node'],
    // As \`tsc --init\` writes it: @trpc/client's own declarations do not check without it (they
    // import \`ws\`, and do not match @types/ws 8.18). lfk's are checked apart, below.
    skipLibCheck: true,
  },
  include: ['src'],
};

/**
 * What a TypeScript service would write: three lines to a typed call, then an error caught by its
 * code. It signs in as an owner whose address is confirmed (keys need one), so the harness signs up
 * and confirms first.
 */
const CONSUMER_PROGRAM = `import { randomUUID } from 'node:crypto';
import {
  createLfkClient, downloadFile, type ErrorCode, isLfkError, type LfkSubmissionFile, lfkErrorOf, type RouterInputs, type RouterOutputs, submitWithFiles
} from '@lfk/client';
import { TRPCClientError } from '@trpc/client';

const baseUrl = process.env.LFK_BASE_URL!;
const check = (ok: boolean, what: string) => { if (!ok) throw new Error(\`consumer program: \${what}\`); };

const signedIn = await createLfkClient({ baseUrl }).auth.login.mutate({ email: process.env.LFK_EMAIL!, password: '${PASSWORD}' });
const owner = createLfkClient({ baseUrl, sessionToken: signedIn.session_token });
const [workspace] = (await owner.workspaces.list.query({})).data;
const signedUp = { workspace: workspace! };
const created: RouterOutputs['apiKeys']['create'] = await owner.apiKeys.create.mutate({ workspace_id: signedUp.workspace.id, name: 'consumer' });
check(created.key.startsWith('lfk_'), 'the new key is shown');

const lfk = createLfkClient({ baseUrl, apiKey: created.key });
const input: RouterInputs['forms']['create'] = { name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }] };
const idempotencyKey = randomUUID();
const form = await lfk.forms.create.mutate(input, { context: { idempotencyKey } });
const retried = await lfk.forms.create.mutate(input, { context: { idempotencyKey } });
check(form.state === 'claimed' && form.workspace_id === signedUp.workspace.id, 'the form is born claimed in the key workspace');
check(retried.id === form.id, 'a retry with the same Idempotency-Key answers the same form');
const read = await lfk.forms.get.query({ form_id: form.id });
check(read.name === 'Contact', 'the form reads back');

// Files travel outside tRPC: a multipart submission with the key, a download with the session.
const filesForm = await lfk.forms.create.mutate({ name: 'Applications', schema: [{ name: 'cv', type: 'file', required: true, accept: ['application/pdf'] }] });
const pdf = new TextEncoder().encode('%PDF-1.7\\n1 0 obj\\n<< /Type /Catalog >>\\nendobj\\n%%EOF\\n');
const submitted = await submitWithFiles({ baseUrl, apiKey: created.key }, filesForm.id, {
  files: { cv: new File([pdf], 'cv.pdf') },
  idempotencyKey: randomUUID()
});
const [stored]: LfkSubmissionFile[] = (await owner.submissions.get.query({ form_id: filesForm.id, submission_id: submitted.id })).files;
const downloaded = await downloadFile(
  { baseUrl, sessionToken: signedIn.session_token },
  { formId: filesForm.id, submissionId: submitted.id, fileId: stored!.id }
);
const bytes = new Uint8Array(await new Response(downloaded.body).arrayBuffer());
check(downloaded.name === 'cv.pdf' && downloaded.contentType === 'application/pdf' && bytes.length === pdf.length, 'the file downloads as it was sent');
let refusedType: string | undefined;
try {
  await submitWithFiles({ baseUrl, apiKey: created.key }, filesForm.id, { files: { cv: new File(['<html></html>'], 'cv.pdf') } });
} catch (error) {
  refusedType = lfkErrorOf(error)?.code;
}
check(refusedType === 'file_type_not_accepted', \`a file of another type is refused with file_type_not_accepted (got \${refusedType})\`);
console.log(\`client: \${submitted.id} with \${stored!.name} (\${stored!.size} bytes) → downloaded → \${refusedType}\`);

await owner.apiKeys.revoke.mutate({ workspace_id: signedUp.workspace.id, key_id: created.id });
let code: ErrorCode | undefined;
try {
  await lfk.forms.get.query({ form_id: form.id });
} catch (error) {
  check(error instanceof TRPCClientError, "the error is the caller's own TRPCClientError");
  if (isLfkError(error, 'invalid_api_key')) {
    code = error.data.code;
    check(error.data.httpStatus === 401 && error.data.request_id.length > 0, 'a 401 with a request id');
  }
}
check(code === 'invalid_api_key', \`the revoked key is refused with invalid_api_key (got \${code})\`);
console.log(\`client: key \${created.id} → form \${form.id} → revoked → 401 \${code}\`);

// Never called: the type checker must refuse these, which it could not if the types were any.
export function refusedByTheTypes() {
  // @ts-expect-error: a form's name is a string
  void lfk.forms.create.mutate({ name: 1, schema: [] });
  // @ts-expect-error: not one of lfk's error codes
  const unknownCode: ErrorCode = 'no_such_code';
  // @ts-expect-error: a procedure lfk does not have
  void lfk.forms.destroy;
  return unknownCode;
}
`;

async function checkClient(tarball: string, server: RunningServer, work: string): Promise<void> {
  const baseUrl = server.baseUrl;
  const project = join(work, 'client-consumer');
  await mkdir(join(project, 'src'), { recursive: true });
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'client-consumer', private: true, type: 'module' }, null, 2));
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG, null, 2));
  await writeFile(join(project, 'src/main.ts'), CONSUMER_PROGRAM);
  const npmArgs = ['install', '--no-audit', '--no-fund'];
  await run('npm', [...npmArgs, tarball, join(REPO, 'node_modules/typescript'), join(REPO, 'node_modules/@types/node')], { cwd: project });

  const installed = JSON.parse(await readFile(join(project, 'node_modules/@lfk/client/package.json'), 'utf8'));
  // One of its own: `standardwebhooks`, which `verifyWebhook` verifies with.
  assert(
    JSON.stringify(Object.keys(installed.dependencies ?? {})) === '["standardwebhooks"]',
    `@lfk/client has dependencies besides standardwebhooks: ${JSON.stringify(installed.dependencies)}`,
  );
  assert(Object.keys(installed.peerDependencies).sort().join() === '@trpc/client,@trpc/server', 'its peers are the tRPC client and its server types');
  const modules = await readdir(join(project, 'node_modules'));
  assert(!modules.some((name) => /mikro-orm|argon2|fastify|zod/.test(name)), `server packages were installed: ${modules.join(', ')}`);

  const tsc = join(project, 'node_modules/.bin/tsc');
  const checked = await run(tsc, ['-p', project], { cwd: project, check: false });
  assert(checked.code === 0, `the consumer program does not type-check:\n${checked.stdout}${checked.stderr}`);
  // Every declaration file checked too: whatever is reported must be tRPC's own, none of lfk's.
  const libraries = await run(tsc, ['-p', project, '--skipLibCheck', 'false', '--noEmit'], { cwd: project, check: false });
  const ours = libraries.stdout.split('\n').filter((line) => /error TS\d+/.test(line) && !line.startsWith('node_modules/@trpc/'));
  assert(ours.length === 0, `@lfk/client's declarations do not check:\n${ours.join('\n')}`);
  const email = `consumer-${process.pid}@example.com`;
  const since = server.printed().length;
  const signup = await fetch(`${baseUrl}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  assert(signup.status === 201, `signing up answered ${signup.status}`);
  await confirmAddress(server, since);
  const program = await run(process.execPath, [join(project, 'out/main.js')], {
    cwd: project,
    env: { ...OUTSIDE_ENV, LFK_BASE_URL: baseUrl, LFK_EMAIL: email },
  });
  process.stdout.write(program.stdout);
}

/**
 * A React app's server code: the form's description read where the page is rendered, the whole form
 * rendered to HTML with `<LfkForm>` and with the hook and the helpers; `@ts-expect-error`s prove
 * the types are lfk's, not `any`.
 */
const REACT_PROGRAM = `import { fetchPublicForm, LfkError, LfkField, LfkForm, type PublicForm, useLfkForm } from '@lfk/react';
import { renderToString } from 'react-dom/server';

const baseUrl = process.env.LFK_BASE_URL!;
const formId = process.env.LFK_FORM_ID!;
const check = (ok: boolean, what: string) => { if (!ok) throw new Error(\`react consumer: \${what}\`); };

const description: PublicForm | null = await fetchPublicForm(baseUrl, formId);
check(description?.fields[0]?.name === 'email', 'the description names the fields');
const whole = renderToString(<LfkForm formId={formId} baseUrl={baseUrl} description={description} submitLabel="Send it" />);
const posts = whole.includes(\`action="\${baseUrl}/v1/forms/\${formId}/submissions"\`) && whole.includes('name="email"');
check(posts, 'the form renders on the server, a form that posts');
check(whole.includes('Send it'), 'with its own button');

function Custom() {
  const form = useLfkForm(formId, { baseUrl, description });
  return (
    <form ref={form.formRef} action={form.action} method="post" onSubmit={form.handleSubmit}>
      <LfkField form={form} name="email" label="Email" />
      <LfkError form={form} name="email" />
      <button disabled={form.submitting}>Send</button>
    </form>
  );
}
check(renderToString(<Custom />).includes('<label'), 'the hook and the helpers render too');
console.log(\`react: \${formId} rendered on the server (\${whole.length} characters)\`);

// Never called: the type checker must refuse these.
export function refusedByTheTypes() {
  // @ts-expect-error: a form needs its id
  const noId = <LfkForm baseUrl={baseUrl} />;
  // @ts-expect-error: a description's fields have names, not numbers
  const name: number = description!.fields[0]!.name;
  return [noId, name];
}
`;

/**
 * `react`: the repository's React 19 (installed from its node_modules), or `18`: React 18 and its
 * types from the registry, the oldest the package's peer range takes.
 */
async function checkReact(tarball: string, clientTarball: string, server: RunningServer, work: string, react: 'repository' | '18'): Promise<void> {
  const project = join(work, `react-consumer-${react}`);
  await mkdir(join(project, 'src'), { recursive: true });
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'react-consumer', private: true, type: 'module' }, null, 2));
  const tsconfig = { ...CONSUMER_TSCONFIG, compilerOptions: { ...CONSUMER_TSCONFIG.compilerOptions, jsx: 'react-jsx', lib: ['es2023', 'dom'] } };
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  await writeFile(join(project, 'src/main.tsx'), REACT_PROGRAM);
  const reactPackages = ['react', 'react-dom', '@types/react', '@types/react-dom'];
  const fromRepo = ['typescript', '@types/node', ...(react === 'repository' ? reactPackages : [])].map((name) => join(REPO, 'node_modules', name));
  const fromRegistry = react === '18' ? ['react@18.3.1', 'react-dom@18.3.1', '@types/react@18', '@types/react-dom@18'] : [];
  await run('npm', ['install', '--no-audit', '--no-fund', tarball, clientTarball, ...fromRepo, ...fromRegistry], { cwd: project });
  const version = JSON.parse(await readFile(join(project, 'node_modules/react/package.json'), 'utf8')).version as string;
  const installed = JSON.parse(await readFile(join(project, 'node_modules/@lfk/react/package.json'), 'utf8'));
  assert(installed.dependencies === undefined, `@lfk/react has dependencies of its own: ${JSON.stringify(installed.dependencies)}`);
  const tsc = join(project, 'node_modules/.bin/tsc');
  const checked = await run(tsc, ['-p', project], { cwd: project, check: false });
  assert(checked.code === 0, `the React program does not type-check:\n${checked.stdout}${checked.stderr}`);
  // A browser form (no credentials: an unclaimed one) for the page to describe.
  const created = await fetch(`${server.baseUrl}/v1/forms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Contact',
      schema: [{ name: 'email', type: 'email', required: true }],
      notify_email: `react-${react}-${process.pid}@example.com`,
    }),
  });
  assert(created.status === 201, `creating a form answered ${created.status}`);
  const form = (await created.json()) as { id: string };
  const program = await run(process.execPath, [join(project, 'out/main.js')], {
    cwd: project,
    env: { ...OUTSIDE_ENV, LFK_BASE_URL: server.baseUrl, LFK_FORM_ID: form.id },
  });
  process.stdout.write(program.stdout.replace('react:', `react ${version}:`));
}

/** The browser kit from its tarball: one file, no dependencies, the very script the server serves at `/v1/kit/lfk.js`. */
async function checkKit(tarball: string, server: RunningServer, work: string): Promise<void> {
  const project = join(work, 'kit-consumer');
  await mkdir(project, { recursive: true });
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'kit-consumer', private: true, type: 'module' }, null, 2));
  await run('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: project });
  const installed = JSON.parse(await readFile(join(project, 'node_modules/@lfk/browser/package.json'), 'utf8'));
  assert(installed.dependencies === undefined, `@lfk/browser has dependencies: ${JSON.stringify(installed.dependencies)}`);
  const script = await readFile(join(project, 'node_modules/@lfk/browser/dist/lfk.js'), 'utf8');
  const served = await fetch(`${server.baseUrl}/v1/kit/lfk.js`);
  assert(served.status === 200 && (await served.text()) === script, 'the installed kit is the one the server serves');
  console.log(`kit: @lfk/browser installed, ${script.length} bytes, the same as /v1/kit/lfk.js`);
}

async function checkCli(tarball: string, server: RunningServer, work: string): Promise<void> {
  const baseUrl = server.baseUrl;
  const prefix = join(work, 'global');
  await run('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball], { cwd: work });
  const installedIn = join(prefix, 'lib/node_modules/@lfk/cli/node_modules');
  const modules = await readdir(installedIn).catch(() => [] as string[]);
  assert(!modules.some((name) => /@lfk|mikro-orm|argon2|fastify|@node-rs/.test(name)), `the CLI brought server packages: ${modules.join(', ')}`);

  const lfkBin = join(prefix, 'bin/lfk');
  const home = join(work, 'home');
  // This Node (22.19 or newer) first on PATH, as a user's would be; a home of its own; no LFK_* from outside.
  const env = { PATH: `${dirname(process.execPath)}:${OUTSIDE_ENV.PATH}`, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), LFK_BASE_URL: baseUrl };
  const lfk = (args: string[], options: { env?: Record<string, string>; input?: string; check?: boolean } = {}) =>
    run(lfkBin, args, { cwd: work, env: { ...env, ...options.env }, ...(options.input ? { input: options.input } : {}), check: options.check ?? true });

  const help = await lfk(['--help']);
  assert(help.stdout.includes('Usage: lfk'), `lfk --help printed:\n${help.stdout}`);
  const since = server.printed().length;
  const signup = JSON.parse(
    (await lfk(['signup', '--email', `cli-${process.pid}@example.com`, '--password-stdin', '--json'], { input: `${PASSWORD}\n` })).stdout,
  );
  await confirmAddress(server, since);
  const key = JSON.parse((await lfk(['keys', 'create', '--name', 'consumer', '--json'])).stdout);
  assert(typeof key.key === 'string' && key.key.startsWith('lfk_'), 'keys create prints the key');
  const withKey = { LFK_API_KEY: key.key };
  const form = JSON.parse((await lfk(['forms', 'create', '--name', 'Contact', '--field', 'email:email:required', '--json'], { env: withKey })).stdout);
  assert(form.state === 'claimed' && form.workspace_id === signup.workspace.id, 'the form is born claimed in the key workspace');
  // A file from disk, streamed as multipart; then downloaded with the session.
  const filesForm = JSON.parse(
    (await lfk(['forms', 'create', '--name', 'Applications', '--field', 'cv:file=application/pdf:required', '--json'], { env: withKey })).stdout,
  );
  const pdf = '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n';
  await writeFile(join(work, 'cv.pdf'), pdf);
  const submitted = JSON.parse((await lfk(['submissions', 'create', filesForm.id, '--file', `cv=${join(work, 'cv.pdf')}`, '--json'], { env: withKey })).stdout);
  const [file] = JSON.parse((await lfk(['submissions', 'get', filesForm.id, submitted.id, '--json'])).stdout).files;
  const downloaded = await lfk(['submissions', 'download', filesForm.id, submitted.id, file.id, '-o', '-']);
  assert(downloaded.stdout === pdf, `the downloaded file differs from the one sent: ${JSON.stringify(downloaded.stdout)}`);
  console.log(`cli: ${submitted.id} with ${file.name} → downloaded`);
  await lfk(['keys', 'revoke', key.id, '--yes']);
  const refused = await lfk(['forms', 'get', form.id, '--json'], { env: withKey, check: false });
  const error = JSON.parse(refused.stderr).error;
  assert(refused.code === 4 && error.code === 'invalid_api_key', `the revoked key gave exit ${refused.code}: ${refused.stderr}`);
  console.log(`cli: key ${key.id} → form ${form.id} → revoked → exit 4 ${error.code}`);
}

const work = await mkdtemp(join(tmpdir(), 'lfk-consumers-'));
let server: RunningServer | undefined;
try {
  console.log(`== packing @lfk/client, @lfk/cli, @lfk/react and @lfk/browser (in ${work})`);
  const tarballs = join(work, 'tarballs');
  await mkdir(tarballs);
  const clientTarball = await pack('packages/client', tarballs);
  const cliTarball = await pack('apps/cli', tarballs);
  const reactTarball = await pack('packages/react', tarballs);
  const kitTarball = await pack('packages/browser', tarballs);
  console.log('== starting the server');
  await mkdir(join(work, 'no-dashboard'));
  server = await startServer(join(work, 'data'), join(work, 'no-dashboard'));
  console.log('== the client, installed from its tarball into a new TypeScript project');
  await checkClient(clientTarball, server, work);
  console.log('== the CLI, installed from its tarball with npm install -g');
  await checkCli(cliTarball, server, work);
  console.log('== @lfk/react, installed from its tarball beside the client, rendering on the server');
  await checkReact(reactTarball, clientTarball, server, work, 'repository');
  await checkReact(reactTarball, clientTarball, server, work, '18');
  console.log('== @lfk/browser, the kit as npm installs it');
  await checkKit(kitTarball, server, work);
  console.log('== consumers ok');
} finally {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
}
