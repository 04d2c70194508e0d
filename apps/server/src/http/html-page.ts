import { escapeHtml } from '@lfk/api';

/** Every page's one style sheet, inline: the pages' Content-Security-Policy allows it by its hash (page-headers.ts). */
export const PAGE_STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}';

/** What a page may hold besides its paragraphs. */
export interface PageParts {
  /** A bulleted list (one line per bad field). */
  items?: string[];
  /** An error page names its lfk error code in a `<meta>` for programs that read it. */
  errorCode?: string;
  /** A button that posts an empty form to `action` (a plain HTML form: no script needed). */
  button?: { label: string; action: string };
  /** A link after the text, e.g. back to the site a form was sent from. */
  link?: { label: string; href: string };
  /** A form that posts one new password to `action` (a reset link's page). */
  passwordForm?: { action: string; label: string; minLength: number; username: string; submit: string };
}

function passwordFormHtml(f: NonNullable<PageParts['passwordForm']>): string {
  // The hidden username lets a password manager file the new password under the right account.
  return `<form method="post" action="${escapeHtml(f.action)}">
<input type="email" name="username" autocomplete="username" value="${escapeHtml(f.username)}" hidden readonly>
<p><label for="password">${escapeHtml(f.label)}</label><br>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${f.minLength}" maxlength="1024"></p>
<button type="submit">${escapeHtml(f.submit)}</button>
</form>
`;
}

/**
 * A small self-contained page (no scripts, no outside resources) for people who follow a link or
 * post a form. Its headers are set wherever it is sent from (page-headers.ts).
 */
export function htmlPage(title: string, paragraphs: string[], { items = [], errorCode, button, link, passwordForm }: PageParts = {}): string {
  const list = items.length > 0 ? `<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>` : '';
  const form = button
    ? `<form method="post" action="${escapeHtml(button.action)}">\n<button type="submit">${escapeHtml(button.label)}</button>\n</form>\n`
    : '';
  const fields = passwordForm ? passwordFormHtml(passwordForm) : '';
  const back = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>\n` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>${errorCode ? `\n<meta name="lfk-error-code" content="${escapeHtml(errorCode)}">` : ''}
<style>${PAGE_STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${list}
${form}${fields}${back}</body>
</html>
`;
}
