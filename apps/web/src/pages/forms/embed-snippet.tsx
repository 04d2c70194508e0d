import type { Form } from './form-values.ts';
import { CopyButton } from '../../components/copy-button.tsx';

const INPUT_TYPES: Record<string, string> = { text: 'text', email: 'email', number: 'number', url: 'url', tel: 'tel', date: 'date' };

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Each provider's widget: the script that runs it, and the element it fills in (which adds its token to the form). */
const CAPTCHA_WIDGETS: Record<NonNullable<Form['spam']['captcha']>['provider'], { script: string; className: string }> = {
  turnstile: { script: 'https://challenges.cloudflare.com/turnstile/v0/api.js', className: 'cf-turnstile' },
  hcaptcha: { script: 'https://js.hcaptcha.com/1/api.js', className: 'h-captcha' },
  recaptcha: { script: 'https://www.google.com/recaptcha/api.js', className: 'g-recaptcha' },
};

/** The form's spam defences as HTML: a honeypot input people never see, and the captcha's widget. */
function spamInputs(form: Form): string[] {
  const lines: string[] = [];
  if (form.spam.honeypot) {
    // Hidden from people (and from screen readers and autofill); bots that fill every input fill it.
    lines.push(`  <input type="text" name="${escapeHtml(form.spam.honeypot)}" style="display:none" tabindex="-1" autocomplete="off" aria-hidden="true">`);
  }
  const captcha = form.spam.captcha;
  if (captcha) lines.push(`  <div class="${CAPTCHA_WIDGETS[captcha.provider].className}" data-sitekey="${escapeHtml(captcha.site_key)}"></div>`);
  return lines;
}

/** The plain HTML form a site pastes in: it posts straight to lfk (a captcha adds its provider's script). */
export function htmlSnippet(form: Form, origin: string): string {
  const fields = form.schema.map((f) => {
    const label = escapeHtml(f.label ?? f.name);
    const name = escapeHtml(f.name);
    const required = f.required ? ' required' : '';
    if (f.type === 'textarea') return `  <label>${label}\n    <textarea name="${name}"${required}></textarea>\n  </label>`;
    if (f.type === 'checkbox') return `  <label>\n    <input type="checkbox" name="${name}"${required}> ${label}\n  </label>`;
    if (f.type === 'select') {
      const options = (f.options ?? []).map((o) => `      <option>${escapeHtml(o)}</option>`).join('\n');
      return `  <label>${label}\n    <select name="${name}"${required}>\n${options}\n    </select>\n  </label>`;
    }
    return `  <label>${label}\n    <input type="${INPUT_TYPES[f.type] ?? 'text'}" name="${name}"${required}>\n  </label>`;
  });
  const script = form.spam.captcha ? `<script src="${CAPTCHA_WIDGETS[form.spam.captcha.provider].script}" async defer></script>\n` : '';
  return `${script}<form method="post" action="${origin}/v1/forms/${form.id}/submissions">\n${[...fields, ...spamInputs(form)].join('\n')}\n  <button type="submit">Send</button>\n</form>`;
}

/** An example value of each field, for the server-side call. */
function exampleValues(form: Form): Record<string, string | number | boolean> {
  const examples: Record<string, string | number | boolean> = {
    email: 'ada@example.com',
    number: 42,
    url: 'https://example.com',
    tel: '+44 20 7946 0000',
    date: '2030-01-31',
    checkbox: true,
  };
  return Object.fromEntries(
    form.schema.map((f) => [f.name, f.type === 'select' ? (f.options?.[0] ?? '') : (examples[f.type] ?? `Your ${f.label ?? f.name}`)]),
  );
}

/** The server-side call, with a placeholder where the key goes: a real key never appears in a page. */
export function curlSnippet(form: Form, origin: string): string {
  const body = JSON.stringify(exampleValues(form));
  return `curl -X POST ${origin}/v1/forms/${form.id}/submissions \\\n  -H "Authorization: Bearer $LFK_API_KEY" \\\n  -H 'content-type: application/json' \\\n  -d '${body.replace(/'/g, "'\\''")}'`;
}

export function fetchSnippet(form: Form, origin: string): string {
  const body = JSON.stringify(exampleValues(form), null, 2).replace(/\n/g, '\n  ');
  return `// On your server: never put an API key in a web page.\nawait fetch('${origin}/v1/forms/${form.id}/submissions', {\n  method: 'POST',\n  headers: {\n    authorization: \`Bearer \${process.env.LFK_API_KEY}\`,\n    'content-type': 'application/json',\n  },\n  body: JSON.stringify(${body}),\n});`;
}

function Snippet({ title, code }: { title: string; code: string }) {
  return (
    <figure className="snippet">
      <figcaption>
        <span>{title}</span> <CopyButton text={code} label={`Copy ${title}`} />
      </figcaption>
      <pre>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/** How to send this form submissions: the HTML form for browsers, or the server-side call for `api_key` mode. */
export function EmbedSnippet({ form }: { form: Form }) {
  const origin = window.location.origin;
  if (form.submission_mode === 'api_key') {
    return (
      <section className="embed" aria-labelledby="embed-title">
        <h2 id="embed-title">Send submissions from your server</h2>
        <p>
          This form takes submissions with an API key only. Set <code>LFK_API_KEY</code> to a key of this workspace on your
          server (owners create them on the API keys page).
        </p>
        <Snippet title="curl" code={curlSnippet(form, origin)} />
        <Snippet title="fetch" code={fetchSnippet(form, origin)} />
      </section>
    );
  }
  return (
    <section className="embed" aria-labelledby="embed-title">
      <h2 id="embed-title">Put the form on your site</h2>
      <p>
        Paste this HTML into a page served from one of the allowed origins
        {form.allowed_origins.length > 0 ? ` (${form.allowed_origins.join(', ')})` : ''}.
        {form.spam.captcha ? ' It loads the captcha’s script; nothing else.' : ' It needs no script.'}
      </p>
      {form.allowed_origins.length === 0 && (
        <p className="alert alert-warning">No origin is allowed yet, so no browser can submit: add your site's origin in the settings.</p>
      )}
      <Snippet title="HTML form" code={htmlSnippet(form, origin)} />
    </section>
  );
}
