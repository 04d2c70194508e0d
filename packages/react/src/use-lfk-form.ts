import { Drafts } from '@lfk/browser/drafts';
import { answersAt, CHECK_ANSWERS, errorIn, failureSentence, fieldOf, percentOf } from '@lfk/browser/outcome';
import { loadCaptchaScript, resetCaptcha } from '@lfk/browser/spam-controls';
import { Attempts, hasFile, type Sending, send } from '@lfk/browser/submission';
import { descriptionUrl, submissionsUrl, type PublicForm as WirePublicForm } from '@lfk/browser/wire';
import type { FormEvent } from 'react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { LfkCreatedSubmission, LfkProgress, PublicForm } from './types.ts';

export interface LfkFormOptions {
  /** lfk's address: `https://forms.example.net` (no path). */
  baseUrl: string;
  /** The form's description, read where the page is rendered (`fetchPublicForm`): the form is drawn at once, and not asked for again. */
  description?: PublicForm | null;
  /** Called with the stored submission. */
  onSuccess?: (submission: LfkCreatedSubmission) => void;
}

export interface LfkFormState {
  /** The form as its page sees it (fields, limits, spam settings); null until read. */
  description: PublicForm | null;
  submitting: boolean;
  succeeded: boolean;
  submission: LfkCreatedSubmission | null;
  /** Each refused field's message, by field name. */
  errors: Record<string, string>;
  /** What the visitor is told beside no field: "Please check your answers.", a closed form's message, a lost connection. */
  message: string | null;
  /** The upload's progress while files are sent; null otherwise. */
  progress: LfkProgress | null;
}

export interface LfkFormApi extends LfkFormState {
  formId: string;
  /** The submission URL: the form's `action`, which works without JavaScript too. */
  action: string;
  /** The `<form>`'s `onSubmit`. */
  handleSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** Stops an upload under way: nothing is stored. */
  cancel: () => void;
  /** Back to a blank form after a success (the same values again would be a new submission). */
  reset: () => void;
  /** The element id of a field's input, and of its error (for `aria-describedby`): stable from server to browser. */
  inputId: (name: string) => string;
  errorId: (name: string) => string;
  /**
   * Give it to the `<form>` as its `ref` (`<LfkForm>` does): focus goes to the first wrong field,
   * and drafts are kept. A callback ref, which React 18's types take as well as 19's.
   */
  formRef: (form: HTMLFormElement | null) => void;
}

const IDLE = { submitting: false, succeeded: false, submission: null, errors: {}, message: null, progress: null };

/**
 * An lfk form in React: reads the form's public description (unless given), sends what the form
 * holds as the browser kit does (JSON, or multipart with files and their progress; one
 * `Idempotency-Key` per attempt), and turns lfk's answer into state: each refused field's message
 * by name, a sentence for the rest, the submission on success. Keeps drafts when the form does.
 * Touches no browser global while rendering, so it renders on a server.
 */
export function useLfkForm(formId: string, options: LfkFormOptions): LfkFormApi {
  const { onSuccess } = options;
  const base = options.baseUrl.replace(/\/+$/, '');
  const target = useMemo(() => ({ base, id: formId }), [base, formId]);
  const given = options.description ?? null;
  const [description, setDescription] = useState<PublicForm | null>(given);
  const [state, setState] = useState<Omit<LfkFormState, 'description'>>(IDLE);
  const attempts = useRef(new Attempts());
  const sending = useRef<Sending | null>(null);
  const drafts = useRef<Drafts | null>(null);
  const formElement = useRef<HTMLFormElement | null>(null);
  const formRef = useCallback((form: HTMLFormElement | null) => {
    formElement.current = form;
  }, []);
  const uid = useId();
  const success = useRef(onSuccess);
  success.current = onSuccess;

  useEffect(() => {
    // Given where the page was rendered: not asked for again.
    if (given?.id === target.id) return;
    let gone = false;
    fetch(descriptionUrl(target), { headers: { accept: 'application/json' } })
      .then((res) => (res.ok ? (res.json() as Promise<PublicForm>) : null))
      .then((read) => {
        if (!gone && read) setDescription(read);
      })
      .catch(() => {});
    return () => {
      gone = true;
    };
  }, [target, given]);

  useEffect(() => {
    if (!description) return;
    if (description.captcha) loadCaptchaScript(description.captcha.provider);
    if (!description.open) setState((s) => ({ ...s, message: description.closed_message || 'This form is closed.' }));
    else if (description.drafts && formElement.current && !drafts.current) {
      drafts.current = new Drafts(formElement.current, target, description as WirePublicForm);
      void drafts.current.restore();
    }
  }, [description, target]);

  // After a refusal, the first wrong field is where the visitor goes.
  useEffect(() => {
    if (Object.keys(state.errors).length > 0) formElement.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [state.errors]);

  const handleSubmit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (sending.current) return;
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      const data = new FormData(event.currentTarget, submitter);
      const files = hasFile(data);
      setState({ ...IDLE, submitting: true, progress: files ? { loaded: 0, total: 0, percent: 0 } : null });
      const request = send(submissionsUrl(target), data, attempts.current.keyFor(data), drafts.current?.token ?? null, (loaded, total) =>
        setState((s) => ({ ...s, progress: { loaded, total, percent: percentOf(loaded, total) } })),
      );
      sending.current = request;
      void request.answer.then(async (answer) => {
        sending.current = null;
        attempts.current.settle(answer.status);
        if (answer.status >= 200 && answer.status < 300) {
          drafts.current?.sent();
          const submission = answer.body as LfkCreatedSubmission;
          setState({ ...IDLE, succeeded: true, submission });
          success.current?.(submission);
          return;
        }
        resetCaptcha(description as WirePublicForm | null);
        const refusedHere = answer.status === 0 && (await answersAt(descriptionUrl(target)));
        const sentence = failureSentence(answer, refusedHere);
        const error = errorIn(answer);
        const errors: Record<string, string> = {};
        const elsewhere: string[] = [];
        for (const detail of sentence === null ? (error?.details ?? []) : []) {
          const name = fieldOf(detail.path);
          if (description?.fields.some((field) => field.name === name)) errors[name] = errors[name] ? `${errors[name]} ${detail.message}` : detail.message;
          else elsewhere.push(detail.message);
        }
        const said = sentence ?? (Object.keys(errors).length > 0 ? CHECK_ANSWERS : error!.message);
        setState({ ...IDLE, errors, message: [said, ...elsewhere].join(' ') });
      });
    },
    [target, description],
  );

  return {
    ...state,
    description,
    formId,
    action: submissionsUrl(target),
    handleSubmit,
    cancel: () => sending.current?.cancel(),
    reset: () => setState(IDLE),
    inputId: (name) => `${uid}-${name}`,
    errorId: (name) => `${uid}-${name}-error`,
    formRef,
  };
}
