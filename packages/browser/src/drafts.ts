/**
 * Drafts (a form whose description says `drafts: true`): what the visitor types is kept on lfk as
 * they go, under a resume token this browser keeps (localStorage), and put back when the page is
 * opened again. Never a file, never a field the form marks private. The submission names the draft
 * (`Lfk-Draft`), and lfk deletes it with the submission's commit. Where the form offers it, the
 * visitor may ask for a link by email (`#lfk-draft=<form>:<token>` on this page) to finish on
 * another device.
 */
import { type PublicForm, type Target, draftsUrl } from './wire.ts';

/** Quiet time after the last keystroke before a save, and the least time between two saves (lfk takes 30 a minute from an address). */
const QUIET_MS = 800;
const SAVE_EVERY_MS = 3000;

/** localStorage, or nothing where the page may not use it (a sandboxed frame, storage turned off). */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const call = (url: string, method: string, body?: unknown, keepalive = false) =>
  fetch(url, {
    method,
    keepalive,
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

export class Drafts {
  readonly #form: HTMLFormElement;
  readonly #target: Target;
  readonly #fields: PublicForm['fields'];
  readonly #key: string;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastSave = 0;
  #saving: Promise<void> | null = null;
  /** What was last sent (or restored): an unchanged form is not sent again. */
  #sent = '';
  /** Sent: no more saves, whatever the page does next. */
  #done = false;
  /** The token where this page may not keep one in localStorage. */
  #memo: string | null = null;

  constructor(form: HTMLFormElement, target: Target, description: PublicForm) {
    this.#form = form;
    this.#target = target;
    this.#fields = description.fields.filter((field) => field.type !== 'file' && !field.private);
    this.#key = `lfk:draft:${target.id}`;
    // Opened from the emailed link: the draft is this browser's now, and the token leaves the address bar.
    const link = /[#&]lfk-draft=(form_\w+):(lfp_\w+)/.exec(location.hash);
    if (link?.[1] === target.id) {
      this.#keep(link[2]!);
      history.replaceState(history.state, '', location.href.split('#')[0]);
    }
    const schedule = () => this.#schedule();
    form.addEventListener('input', schedule);
    form.addEventListener('change', schedule);
    // The tab is going away: what is still waiting goes now.
    addEventListener('pagehide', () => this.#flush(true));
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && this.#flush(true));
  }

  /** The resume token this browser keeps for the form, if any. */
  get token(): string | null {
    return storage()?.getItem(this.#key) ?? this.#memo;
  }

  #keep(token: string | null): void {
    this.#memo = token;
    try {
      if (token) storage()?.setItem(this.#key, token);
      else storage()?.removeItem(this.#key);
    } catch {}
  }

  /** Saves what is typed now (after a save under way), and resolves once lfk has it. */
  async saveNow(): Promise<void> {
    await this.#saving;
    this.#flush(false);
    await this.#saving;
  }

  /** Asks lfk to email `address` a link to this page with the draft: the answer's status (0: none came, -1: nothing typed to keep). */
  async emailLink(address: string): Promise<number> {
    await this.saveNow();
    const token = this.token;
    if (!token) return -1;
    const res = await call(`${draftsUrl(this.#target)}/${encodeURIComponent(token)}/email`, 'POST', {
      email: address,
      page_url: location.href.split('#')[0],
    }).catch(() => null);
    return res?.status ?? 0;
  }

  /** Puts back the answers of the draft this browser keeps; a draft lfk no longer has is forgotten. Resolves to what was put back. */
  async restore(): Promise<Record<string, string | boolean> | null> {
    const token = this.token;
    if (!token) return null;
    const res = await call(`${draftsUrl(this.#target)}/${encodeURIComponent(token)}`, 'GET').catch(() => null);
    if (res?.status === 404) this.#keep(null);
    if (!res?.ok) return null;
    const { data } = (await res.json()) as { data: Record<string, string | boolean> };
    for (const field of this.#fields) {
      const value = data[field.name];
      if (value !== undefined) this.#fill(field.name, value);
    }
    this.#sent = JSON.stringify(this.#values());
    return data;
  }

  /** The submission is stored, and the draft with it: nothing more to keep. */
  sent(): void {
    this.#done = true;
    clearTimeout(this.#timer);
    this.#keep(null);
  }

  #fill(name: string, value: string | boolean): void {
    const item = this.#form.elements.namedItem(name);
    const elements = item instanceof RadioNodeList ? [...item] : item ? [item] : [];
    for (const element of elements) {
      if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
        element.checked = typeof value === 'boolean' ? value : element.value === value;
      } else if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) {
        if (typeof value === 'string') element.value = value;
      }
    }
  }

  /** The form's own fields as typed now: a checkbox as true or false, text as it stands (the first of a repeated name). */
  #values(): Record<string, string | boolean> {
    const data = new FormData(this.#form);
    const values: Record<string, string | boolean> = {};
    for (const field of this.#fields) {
      if (field.type === 'checkbox') values[field.name] = data.has(field.name);
      else {
        const value = data.get(field.name);
        if (typeof value === 'string' && value !== '') values[field.name] = value;
      }
    }
    return values;
  }

  #schedule(): void {
    if (this.#done) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#flush(false), Math.max(QUIET_MS, this.#lastSave + SAVE_EVERY_MS - Date.now()));
  }

  #flush(leaving: boolean): void {
    if (this.#done) return;
    clearTimeout(this.#timer);
    if (this.#saving) {
      // One save at a time: this one again once the one under way is answered.
      if (!leaving) void this.#saving.then(() => this.#schedule());
      return;
    }
    const values = this.#values();
    const text = JSON.stringify(values);
    // Nothing typed yet is no draft; what lfk already has is not sent again.
    if (text === this.#sent || (!this.token && !Object.values(values).some((v) => v !== false))) return;
    this.#lastSave = Date.now();
    this.#saving = this.#save(values, text, leaving).finally(() => {
      this.#saving = null;
    });
  }

  async #save(data: Record<string, string | boolean>, text: string, leaving: boolean): Promise<void> {
    const token = this.token;
    const res = await (token
      ? call(`${draftsUrl(this.#target)}/${encodeURIComponent(token)}`, 'PUT', { data }, leaving)
      : call(draftsUrl(this.#target), 'POST', { data }, leaving)
    ).catch(() => null);
    if (this.#done || !res) return;
    if (res.ok) {
      this.#sent = text;
      if (!token) this.#keep(((await res.json()) as { resume_token: string }).resume_token);
    } else if (res.status === 404 && token) {
      // Expired or deleted by the owner: the next keystroke starts a new one.
      this.#keep(null);
    } else if (res.status === 429) {
      const wait = Number(res.headers.get('retry-after'));
      this.#lastSave = Date.now() + (Number.isFinite(wait) ? wait * 1000 : 60_000);
    }
  }
}
