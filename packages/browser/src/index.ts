/**
 * `@lfk/browser`: makes every lfk form on the page submit without leaving it. A form is lfk's when
 * its `action` is an lfk submission URL (`…/v1/forms/form_…/submissions`) or it says
 * `data-lfk-form="form_…"`. The form keeps working without this script: it posts as plain HTML and
 * lfk answers with its pages. Events on the form: `lfk:submit` (cancelable), `lfk:progress`,
 * `lfk:success` (cancelable: the page shows the success itself), `lfk:error`, and `lfk:restore` when
 * a draft's answers were put back.
 */
import { offerLink } from './continue-later.ts';
import { Drafts } from './drafts.ts';
import { Feedback } from './feedback.ts';
import { addSpamControls, resetCaptcha, submitButtons } from './spam-controls.ts';
import { answersAt, errorIn, failureSentence } from './outcome.ts';
import { type Answer, Attempts, hasFile, type Sending, send } from './submission.ts';
import { descriptionUrl, type PublicForm, submissionsUrl, type Target, targetOf } from './wire.ts';

/** The server this script was loaded from (the path before `/v1/kit/`): where `data-lfk-form` forms go without `data-lfk-url`. */
const scriptSrc = (document.currentScript as HTMLScriptElement | null)?.src;
const scriptBase = scriptSrc ? scriptSrc.replace(/\/v1\/kit\/[^/]*$/, '') : null;

const enhanced = new WeakSet<HTMLFormElement>();

const fire = (form: HTMLFormElement, name: string, detail: unknown, cancelable = false) =>
  form.dispatchEvent(new CustomEvent(`lfk:${name}`, { bubbles: true, cancelable, detail }));

const reachable = (target: Target) => answersAt(descriptionUrl(target));

function notAllowedHere(target: Target): void {
  console.error(
    `lfk: ${location.origin} is not one of the allowed origins of form ${target.id}, so lfk refuses what this page sends. ` +
      'Add it to the form’s allowed origins (dashboard: the form’s settings; CLI: lfk forms update --origin).',
  );
}

class LfkForm {
  readonly form: HTMLFormElement;
  readonly target: Target;
  readonly feedback: Feedback;
  description: PublicForm | null = null;
  drafts: Drafts | null = null;
  readonly attempts = new Attempts();
  sending: Sending | null = null;
  warned = false;

  constructor(form: HTMLFormElement, target: Target) {
    this.form = form;
    this.target = target;
    this.feedback = new Feedback(form);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (!this.sending) void this.submit(event.submitter);
    });
    void this.describe();
  }

  async describe(): Promise<void> {
    try {
      const res = await fetch(descriptionUrl(this.target), { headers: { accept: 'application/json' } });
      if (!res.ok) return;
      const description = (await res.json()) as PublicForm;
      this.description = description;
      addSpamControls(this.form, description);
      if (!description.open) this.feedback.say(description.closed_message || 'This form is closed.');
      else if (description.drafts) {
        this.drafts = new Drafts(this.form, this.target, description);
        if (description.draft_email_link) offerLink(this.form, this.drafts, description, (message) => this.feedback.say(message));
        const restored = await this.drafts.restore();
        if (restored) fire(this.form, 'restore', { data: restored });
      }
    } catch {
      if (await reachable(this.target)) this.refusedOrigin();
    }
  }

  refusedOrigin(): void {
    if (!this.warned) notAllowedHere(this.target);
    this.warned = true;
  }

  async submit(submitter: HTMLElement | null): Promise<void> {
    const { form, feedback } = this;
    // With the button pressed, as a plain post sends it.
    const data = new FormData(form, submitter);
    if (!fire(form, 'submit', { data }, true)) return;
    feedback.clear();
    feedback.say('Sending…');
    const buttons = submitButtons(form).filter((b) => !b.disabled);
    for (const button of buttons) button.disabled = true;
    // Files: their progress, and a way to stop.
    const sending = send(submissionsUrl(this.target), data, this.attempts.keyFor(data), this.drafts?.token ?? null, (loaded, total) => {
      const percent = feedback.progress(loaded, total);
      fire(form, 'progress', { loaded, total, percent });
    });
    this.sending = sending;
    if (hasFile(data)) feedback.showProgress(sending.cancel);
    const answer = await sending.answer;
    this.sending = null;
    for (const button of buttons) button.disabled = false;
    feedback.hideProgress();
    this.attempts.settle(answer.status);
    this.answered(answer);
  }

  async answered(answer: Answer): Promise<void> {
    const { form, feedback } = this;
    const { status, body } = answer;
    if (status >= 200 && status < 300) {
      this.drafts?.sent();
      if (!fire(form, 'success', { submission: body }, true)) return;
      const redirect = form.getAttribute('data-lfk-redirect');
      if (redirect) location.assign(redirect);
      else feedback.succeed();
      return;
    }
    resetCaptcha(this.description);
    const error = errorIn(answer);
    const refusedHere = answer.status === 0 && (await reachable(this.target));
    if (refusedHere || error?.code === 'origin_not_allowed') this.refusedOrigin();
    const sentence = failureSentence(answer, refusedHere);
    if (sentence) feedback.say(sentence);
    else feedback.showErrors(error!, this.description);
    // What no answer says: its code for the page's listeners.
    const code = status === -1 ? 'cancelled' : status > 0 ? 'server_error' : refusedHere ? 'origin_not_allowed' : 'network_error';
    fire(form, 'error', {
      status: Math.max(status, 0),
      error: error ?? { code, message: feedback.status.textContent },
    });
  }
}

/** Makes `form` an lfk form sent in place. Returns false when it is not an lfk form (or already is). */
function enhance(form: HTMLFormElement): boolean {
  const target = enhanced.has(form) ? null : targetOf(form, scriptBase);
  if (!target) return false;
  enhanced.add(form);
  new LfkForm(form, target);
  return true;
}

const enhanceAll = () => {
  for (const form of document.querySelectorAll('form')) enhance(form);
};

(window as unknown as { lfk: unknown }).lfk = { enhance };
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', enhanceAll);
else enhanceAll();
