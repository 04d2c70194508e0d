/**
 * What the visitor sees and hears: each refused field marked beside its input (`aria-invalid`, an
 * error linked by `aria-describedby`), a summary in a polite live region, upload progress with a
 * way to cancel, and the success in place of the form.
 */
import { CHECK_ANSWERS, fieldOf, percentOf, progressWords, SENT } from './outcome.ts';
import type { PublicForm, WireError } from './wire.ts';

let counter = 0;

const make = <K extends keyof HTMLElementTagNameMap>(tag: K, text = ''): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
};

/** A field's first element (a group of radios or checkboxes answers by its first). */
function fieldElement(form: HTMLFormElement, name: string): HTMLElement | null {
  const item = form.elements.namedItem(name);
  const element = item instanceof RadioNodeList ? item[0] : item;
  return element instanceof HTMLElement ? element : null;
}

export class Feedback {
  /** The live region: the owner's `[data-lfk-status]`, or one the kit adds at the form's end. */
  readonly status: HTMLElement;
  /** What `clear()` undoes: each marked field with its own `aria-describedby`, and the error element. */
  #marks: [HTMLElement, string | null, HTMLElement][] = [];
  #progress: { parts: HTMLElement[]; bar: HTMLProgressElement; text: HTMLElement; cancel: HTMLButtonElement } | null = null;

  readonly form: HTMLFormElement;

  constructor(form: HTMLFormElement) {
    this.form = form;
    let status = form.querySelector<HTMLElement>('[data-lfk-status]');
    if (!status) {
      status = make('div');
      status.setAttribute('data-lfk-status', '');
      form.append(status);
    }
    status.setAttribute('role', 'status');
    status.setAttribute('aria-live', 'polite');
    this.status = status;
  }

  /** Says `message` in the live region (with, below it, what no input shows). */
  say(message: string, more: string[] = []): void {
    const paragraph = make('p', message);
    const parts: HTMLElement[] = [paragraph];
    if (more.length > 0) {
      const list = make('ul');
      for (const line of more) list.append(make('li', line));
      parts.push(list);
    }
    this.status.replaceChildren(...parts);
  }

  /** Takes away every mark and message of the last attempt. */
  clear(): void {
    for (const [field, describedBy, error] of this.#marks) {
      field.removeAttribute('aria-invalid');
      if (describedBy === null) field.removeAttribute('aria-describedby');
      else field.setAttribute('aria-describedby', describedBy);
      error.remove();
    }
    this.#marks = [];
    this.status.replaceChildren();
  }

  /** A refusal with details: each beside its input, the rest in the summary; focus on the first wrong field. */
  showErrors(error: WireError, description: PublicForm | null): void {
    const byField = new Map<HTMLElement, string[]>();
    const elsewhere: string[] = [];
    for (const detail of error.details ?? []) {
      const name = fieldOf(detail.path);
      const field = name ? fieldElement(this.form, name) : null;
      if (field && !(field instanceof HTMLInputElement && field.type === 'hidden')) byField.set(field, [...(byField.get(field) ?? []), detail.message]);
      else {
        const label = description?.fields.find((f) => f.name === name)?.label ?? name;
        elsewhere.push(label ? `${label}: ${detail.message}` : detail.message);
      }
    }
    for (const [field, messages] of byField) {
      const message = make('span', messages.join(' '));
      message.id = `lfk-error-${++counter}`;
      message.className = 'lfk-error';
      message.setAttribute('data-lfk-error', '');
      const describedBy = field.getAttribute('aria-describedby');
      this.#marks.push([field, describedBy, message]);
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', describedBy ? `${describedBy} ${message.id}` : message.id);
      const type = (field as HTMLInputElement).type;
      const group = type === 'radio' || type === 'checkbox' ? field.closest('fieldset') : null;
      if (group) group.append(message);
      else (field.closest('label') ?? field).after(message);
    }
    this.say(byField.size > 0 ? CHECK_ANSWERS : error.message, elsewhere);
    byField.keys().next().value?.focus();
  }

  /** The upload's progress bar, its words and its cancel button, shown (created the first time). */
  showProgress(onCancel: () => void): void {
    if (!this.#progress) {
      const owners = this.form.querySelector<HTMLProgressElement>('progress[data-lfk-progress]');
      const bar = owners ?? make('progress');
      bar.max = 100;
      bar.value = 0;
      if (!owners) bar.setAttribute('aria-label', 'Upload progress');
      const text = make('span');
      const cancel = make('button', 'Cancel upload');
      cancel.type = 'button';
      const box = make('div');
      box.className = 'lfk-progress';
      if (owners) owners.after(text, cancel);
      else {
        box.append(bar, text, cancel);
        this.status.before(box);
      }
      this.#progress = { parts: owners ? [bar, text, cancel] : [box], bar, text, cancel };
    }
    this.#progress.cancel.onclick = onCancel;
    this.progress(0, 0);
    this.#setProgressShown(true);
  }

  progress(loaded: number, total: number): number {
    const percent = percentOf(loaded, total);
    if (this.#progress) {
      this.#progress.bar.value = percent;
      this.#progress.text.textContent = progressWords(loaded, total);
    }
    return percent;
  }

  hideProgress(): void {
    this.#setProgressShown(false);
  }

  #setProgressShown(shown: boolean): void {
    const p = this.#progress;
    if (!p) return;
    for (const element of p.parts) element.hidden = !shown;
  }

  /** The success, in place of the form: the owner's `[data-lfk-success]` element, or a sentence; focused. */
  succeed(): void {
    let done = this.form.querySelector<HTMLElement>('[data-lfk-success]');
    if (done) done.hidden = false;
    else {
      done = make('p', SENT);
      done.setAttribute('role', 'status');
    }
    if (!done.hasAttribute('tabindex')) done.tabIndex = -1;
    this.form.replaceWith(done);
    done.focus();
  }
}
