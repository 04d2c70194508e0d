import type { RouterOutputs } from './router.ts';

// What to paste to send a form submissions, made from the form as the API answers it: the plain
// HTML form for a site (browser mode), or the server-side call with a key (api_key mode). The
// dashboard shows them and `lfk forms create` prints them; a program can make them too.

/** The parts of a form its snippets are made from. */
export type SnippetForm = Pick<RouterOutputs['forms']['get'], 'id' | 'schema' | 'spam' | 'submission_mode'>;

const INPUT_TYPES: Record<string, string> = { text: 'text', email: 'email', number: 'number', url: 'url', tel: 'tel', date: 'date' };

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Each provider's widget: the script that runs it, and the element it fills in (which adds its token to the form). */
const CAPTCHA_WIDGETS: Record<NonNullable<SnippetForm['spam']['captcha']>['provider'], { script: string; className: string }> = {
  turnstile: { script: 'https://challenges.cloudflare.com/turnstile/v0/api.js', className: 'cf-turnstile' },
  hcaptcha: { script: 'https://js.hcaptcha.com/1/api.js', className: 'h-captcha' },
  recaptcha: { script: 'https://www.google.com/recaptcha/api.js', className: 'g-recaptcha' },
};

/** Where the form's submissions are posted: `baseUrl` is the lfk server's, as people reach it. */
export function submissionUrl(form: Pick<SnippetForm, 'id'>, baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/forms/${form.id}/submissions`;
}

/** The form's spam defences as HTML: a honeypot input people never see, and the captcha's widget. */
function spamInputs(form: SnippetForm): string[] {
  const lines: string[] = [];
  if (form.spam.honeypot) {
    // Hidden from people (and from screen readers and autofill); bots that fill every input fill it.
    lines.push(`  <input type="text" name="${escapeHtml(form.spam.honeypot)}" style="display:none" tabindex="-1" autocomplete="off" aria-hidden="true">`);
  }
  const captcha = form.spam.captcha;
  if (captcha) lines.push(`  <div class="${CAPTCHA_WIDGETS[captcha.provider].className}" data-sitekey="${escapeHtml(captcha.site_key)}"></div>`);
  return lines;
}

/** Each field of the form as the HTML a site pastes in: a labelled input, textarea or select. */
function fieldInputs(form: SnippetForm): string[] {
  return form.schema.map((f) => {
    const label = escapeHtml(f.label ?? f.name);
    const name = escapeHtml(f.name);
    const required = f.required ? ' required' : '';
    if (f.type === 'textarea') return `  <label>${label}\n    <textarea name="${name}"${required}></textarea>\n  </label>`;
    if (f.type === 'checkbox') return `  <label>\n    <input type="checkbox" name="${name}"${required}> ${label}\n  </label>`;
    if (f.type === 'file') {
      const accept = f.accept ? ` accept="${escapeHtml(f.accept.join(','))}"` : '';
      return `  <label>${label}\n    <input type="file" name="${name}"${accept}${f.multiple ? ' multiple' : ''}${required}>\n  </label>`;
    }
    if (f.type === 'select') {
      const choices = [...(f.required ? [] : ['      <option value=""></option>']), ...(f.options ?? []).map((o) => `      <option>${escapeHtml(o)}</option>`)];
      return `  <label>${label}\n    <select name="${name}"${required}>\n${choices.join('\n')}\n    </select>\n  </label>`;
    }
    return `  <label>${label}\n    <input type="${INPUT_TYPES[f.type] ?? 'text'}" name="${name}"${required}>\n  </label>`;
  });
}

/** The captcha provider's script, when the form has a captcha. */
const captchaScript = (form: SnippetForm) =>
  form.spam.captcha ? `<script src="${CAPTCHA_WIDGETS[form.spam.captcha.provider].script}" async defer></script>\n` : '';

/**
 * The plain HTML form a site pastes in: it posts straight to lfk (a captcha adds its provider's
 * script). An optional select starts on an empty choice, so that leaving it alone sends nothing.
 */
export function htmlFormSnippet(form: SnippetForm, baseUrl: string): string {
  return `${captchaScript(form)}<form method="post" action="${submissionUrl(form, baseUrl)}"${enctypeOf(form)}>\n${formBody(form)}\n</form>`;
}

/** Browsers send files only in a multipart body. */
const enctypeOf = (form: SnippetForm) => (hasFiles(form) ? ' enctype="multipart/form-data"' : '');

/** What goes inside the `<form>`: its fields, its spam defences, and the button. */
const formBody = (form: SnippetForm) => `${[...fieldInputs(form), ...spamInputs(form)].join('\n')}\n  <button type="submit">Send</button>`;

/**
 * The same form, sent by the page's own script (fetch): the person stays on the page, which says
 * "Thank you" when the answers are taken, and otherwise shows lfk's message, and each field's
 * problem beside that field. Without the script it still posts as the plain form does.
 */
export function fetchFormSnippet(form: SnippetForm, baseUrl: string): string {
  // Ids of the form's own, so two forms on one page keep apart.
  const id = `lfk-${form.id}`;
  const html =
    `${captchaScript(form)}<form id="${id}" method="post" action="${submissionUrl(form, baseUrl)}"${enctypeOf(form)}>\n` +
    `${formBody(form)}\n  <p id="${id}-status" role="status"></p>\n</form>`;
  const script = `<script>
  document.getElementById('${id}').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.target;
    const status = document.getElementById('${id}-status');
    for (const note of form.querySelectorAll('.lfk-error')) note.remove();
    status.textContent = 'Sending…';
    try {
      const res = await fetch(form.action, { method: 'POST', body: new FormData(form), headers: { accept: 'application/json' } });
      if (res.ok) {
        form.reset();
        status.textContent = 'Thank you: your answers were sent.';
        return;
      }
      const { error } = await res.json();
      status.textContent = error.details ? 'Please check your answers.' : error.message;
      for (const detail of error.details ?? []) {
        const input = form.querySelector(\`[name="\${CSS.escape(detail.path)}"]\`);
        const note = document.createElement('small');
        note.className = 'lfk-error';
        note.textContent = detail.message;
        (input ?? status).after(note);
      }
    } catch {
      status.textContent = 'Your answers could not be sent. Please try again.';
    }
  });
</script>`;
  return `${html}\n${script}`;
}

/**
 * The same form, kept on the page by lfk's browser kit: the kit's tag (`scriptTag`, as `GET /v1/kit`
 * answers it, pinned by its integrity hash) before the plain HTML form, which still posts without
 * JavaScript. The kit sends it in place, says each problem beside its field, shows an upload's
 * progress and the thanks.
 */
export function kitFormSnippet(form: SnippetForm, baseUrl: string, scriptTag: string): string {
  return `${scriptTag}\n${htmlFormSnippet(form, baseUrl)}`;
}

/**
 * The same form in a React app, with `@lfk/react`: `<LfkForm>` draws it from its public description
 * (read on the server, the first HTML is a form that posts) and sends it in place.
 */
export function reactFormSnippet(form: Pick<SnippetForm, 'id'>, baseUrl: string): string {
  return [
    "import { fetchPublicForm, LfkForm } from '@lfk/react';",
    '',
    `const LFK = '${baseUrl}';`,
    `const FORM_ID = '${form.id}';`,
    '',
    '// Where the page is rendered (a server component, a loader), so the first HTML is the whole form:',
    '// const description = await fetchPublicForm(LFK, FORM_ID);',
    'export function ContactForm({ description }) {',
    '  return <LfkForm formId={FORM_ID} baseUrl={LFK} description={description} success={<p>Thank you: we will be in touch.</p>} />;',
    '}',
  ].join('\n');
}

const hasFiles = (form: SnippetForm) => form.schema.some((f) => f.type === 'file');

/** Extensions of the types a file field most often takes, for an example file's name. */
const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/*': 'jpg',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'text/plain': 'txt',
  'text/csv': 'csv',
};

/** An example file for a file field, named after the field and the first type it accepts (`cv.pdf`). */
const exampleFile = (f: SnippetForm['schema'][number]) => `${f.name}.${EXTENSIONS[f.accept?.[0] ?? ''] ?? 'bin'}`;

/** Quoted for a POSIX shell, when it needs to be. */
const shellWord = (word: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);

/** An example value of each field (but files), for the server-side call. */
function exampleValues(form: SnippetForm): Record<string, string | number | boolean> {
  const examples: Record<string, string | number | boolean> = {
    email: 'ada@example.com',
    number: 42,
    url: 'https://example.com',
    tel: '+44 20 7946 0000',
    date: '2030-01-31',
    checkbox: true,
  };
  return Object.fromEntries(
    form.schema
      .filter((f) => f.type !== 'file')
      .map((f) => [f.name, f.type === 'select' ? (f.options?.[0] ?? '') : (examples[f.type] ?? `Your ${f.label ?? f.name}`)]),
  );
}

/**
 * The server-side call with curl, with a placeholder where the key goes: a real key never appears
 * in a snippet. A form with files is sent as curl's `-F` sends it (multipart), a file from disk.
 */
export function curlSubmissionSnippet(form: SnippetForm, baseUrl: string): string {
  const head = `curl -X POST ${submissionUrl(form, baseUrl)} \\\n  -H "Authorization: Bearer $LFK_API_KEY" \\\n  `;
  if (hasFiles(form)) {
    const values = Object.entries(exampleValues(form)).map(([name, value]) => `-F ${shellWord(`${name}=${value}`)}`);
    const files = form.schema.filter((f) => f.type === 'file').map((f) => `-F ${shellWord(`${f.name}=@${exampleFile(f)}`)}`);
    return `${head}${[...values, ...files].join(' \\\n  ')}`;
  }
  const body = JSON.stringify(exampleValues(form));
  return `${head}-H 'content-type: application/json' \\\n  -d ${shellWord(body)}`;
}

/** The server-side call with fetch: JSON, or a `FormData` (its multipart content type set by fetch) when the form takes files. */
export function fetchSubmissionSnippet(form: SnippetForm, baseUrl: string): string {
  const call = (headers: string[], body: string) =>
    `await fetch('${submissionUrl(form, baseUrl)}', {\n  method: 'POST',\n  headers: {\n` +
    `${headers.map((h) => `    ${h},\n`).join('')}  },\n  body: ${body},\n});`;
  const authorization = `authorization: \`Bearer \${process.env.LFK_API_KEY}\``;
  const warning = '// On your server: never put an API key in a web page.';
  if (hasFiles(form)) {
    const appends = [
      ...Object.entries(exampleValues(form)).map(([name, value]) => `body.append(${JSON.stringify(name)}, ${JSON.stringify(String(value))});`),
      ...form.schema
        .filter((f) => f.type === 'file')
        .map((f) => `body.append(${JSON.stringify(f.name)}, await openAsBlob(${JSON.stringify(exampleFile(f))}), ${JSON.stringify(exampleFile(f))});`),
    ];
    return `${warning}\nimport { openAsBlob } from 'node:fs';\n\nconst body = new FormData();\n${appends.join('\n')}\n${call([authorization], 'body')}`;
  }
  const body = JSON.stringify(exampleValues(form), null, 2).replace(/\n/g, '\n  ');
  return `${warning}\n${call([authorization, "'content-type': 'application/json'"], `JSON.stringify(${body})`)}`;
}
