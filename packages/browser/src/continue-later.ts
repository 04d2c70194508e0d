/**
 * "Finish later" (a form whose description says `draft_email_link`): a disclosure in the form, or
 * in the owner's `[data-lfk-later]` element, where the visitor asks for a link to their draft by
 * email. Its input has no name: it is never part of what the form sends.
 */
import type { Drafts } from './drafts.ts';
import type { PublicForm } from './wire.ts';

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text = '') => Object.assign(document.createElement(tag), { textContent: text });

export function offerLink(form: HTMLFormElement, drafts: Drafts, description: PublicForm, say: (message: string) => void): void {
  const details = el('details');
  details.className = 'lfk-later';
  const input = Object.assign(el('input'), { type: 'email', autocomplete: 'email' });
  const label = el('label', 'Send the link to ');
  label.append(input);
  const button = Object.assign(el('button', 'Email me a link'), { type: 'button' });
  details.append(el('summary', 'Finish later'), label, button);
  (form.querySelector('[data-lfk-later]') ?? form).append(details);
  // The address the visitor typed in the form, if it has an email field.
  details.addEventListener('toggle', () => {
    const field = description.fields.find((f) => f.type === 'email');
    const typed = field && new FormData(form).get(field.name);
    if (!input.value && typeof typed === 'string') input.value = typed;
  });
  button.addEventListener('click', async () => {
    const address = input.value.trim();
    if (!address || !input.checkValidity()) {
      say('Please enter your email address to get the link.');
      return input.focus();
    }
    button.disabled = true;
    const status = await drafts.emailLink(address);
    button.disabled = false;
    say(
      status === 202
        ? `We emailed ${address} a link to finish later, on this or another device.`
        : status === -1
          ? 'Type some answers first: there is nothing to keep yet.'
          : status === 429
            ? 'Too many attempts: please try again later.'
            : 'The link could not be sent: please try again.',
    );
  });
}
