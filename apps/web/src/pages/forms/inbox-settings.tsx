import type { RouterInputs } from '@lfk/client';
import { CAPTCHA_PROVIDERS, type CaptchaProvider, DRAFT_TTL_DAYS, RETENTION_DAYS, SPAM_RETENTION_DAYS } from '@lfk/vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { ErrorText, errorAt } from '../../components/error-text.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { localInput } from '../../components/local-time.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { Form } from './form-values.ts';

const PROVIDER_NAMES: Record<CaptchaProvider, string> = { turnstile: 'Cloudflare Turnstile', hcaptcha: 'hCaptcha', recaptcha: 'Google reCAPTCHA' };

/** The section's values, as typed; nested as the API's `details` name them (`spam.captcha.secret`). */
interface InboxValues {
  spam: { honeypot: string; captcha: { provider: CaptchaProvider | ''; site_key: string; secret: string } };
  closed: boolean;
  /** A `datetime-local` value, in the browser's time zone. */
  closes_at: string;
  max_submissions: string;
  closed_message: string;
  retention_days: string;
  drafts: { enabled: boolean; ttl_days: string; email_link: boolean };
  /** The threshold as typed; blank is the shipped one. */
  spam_filter: { enabled: boolean; threshold: string };
}

const FIELDS = [
  'spam.honeypot',
  'spam.captcha',
  'spam.captcha.provider',
  'spam.captcha.site_key',
  'spam.captcha.secret',
  'closed',
  'closes_at',
  'max_submissions',
  'closed_message',
  'retention_days',
  'drafts',
  'drafts.enabled',
  'drafts.ttl_days',
  'drafts.email_link',
  'spam_filter',
  'spam_filter.enabled',
  'spam_filter.threshold',
];

function valuesOf(form: Form): InboxValues {
  return {
    spam: {
      honeypot: form.spam.honeypot ?? '',
      captcha: { provider: form.spam.captcha?.provider ?? '', site_key: form.spam.captcha?.site_key ?? '', secret: '' },
    },
    closed: form.closed,
    closes_at: localInput(form.closes_at),
    max_submissions: form.max_submissions === null ? '' : String(form.max_submissions),
    closed_message: form.closed_message ?? '',
    retention_days: form.retention_days === null ? '' : String(form.retention_days),
    drafts: { enabled: form.drafts.enabled, ttl_days: String(form.drafts.ttl_days), email_link: form.drafts.email_link },
    spam_filter: { enabled: form.spam_filter.enabled, threshold: String(form.spam_filter.threshold) },
  };
}

type Update = Omit<RouterInputs['forms']['update'], 'form_id'>;

/** A number as typed: blank is none; what is not a number goes as typed, so the API names the field (NaN would travel as null). */
function numberOrNull(text: string): number | null {
  if (text.trim() === '') return null;
  const number = Number(text.trim());
  return Number.isFinite(number) ? number : (text as unknown as number);
}

/** What changed, in the API's terms: an untouched setting is not sent, and a blank secret keeps the stored one. */
function changes(form: Form, values: InboxValues): Update {
  const update: Update = {};
  const honeypot = values.spam.honeypot.trim() || null;
  const { provider, site_key: siteKey, secret } = values.spam.captcha;
  const spam: NonNullable<Update['spam']> = {};
  if (honeypot !== form.spam.honeypot) spam.honeypot = honeypot;
  if (provider === '') {
    if (form.spam.captcha) spam.captcha = null;
  } else if (provider !== form.spam.captcha?.provider || siteKey !== form.spam.captcha.site_key || secret !== '') {
    spam.captcha = { provider, site_key: siteKey, ...(secret !== '' ? { secret } : {}) };
  }
  if (Object.keys(spam).length > 0) update.spam = spam;
  if (values.closed !== form.closed) update.closed = values.closed;
  const closesAt = values.closes_at ? new Date(values.closes_at).toISOString() : null;
  if (values.closes_at !== localInput(form.closes_at)) update.closes_at = closesAt;
  const max = numberOrNull(values.max_submissions);
  if (max !== form.max_submissions) update.max_submissions = max;
  const message = values.closed_message.trim() || null;
  if (message !== form.closed_message) update.closed_message = message;
  const draftDays = numberOrNull(values.drafts.ttl_days);
  const { enabled, email_link: emailLink } = values.drafts;
  if (enabled !== form.drafts.enabled || draftDays !== form.drafts.ttl_days || emailLink !== form.drafts.email_link) {
    update.drafts = { enabled, email_link: emailLink, ...(draftDays === null ? {} : { ttl_days: draftDays }) };
  }
  const threshold = numberOrNull(values.spam_filter.threshold);
  if (values.spam_filter.enabled !== form.spam_filter.enabled || threshold !== form.spam_filter.threshold) {
    // The threshold only when changed: one left alone follows lfk's own as it improves.
    update.spam_filter = { enabled: values.spam_filter.enabled, ...(threshold !== form.spam_filter.threshold ? { threshold } : {}) };
  }
  return update;
}

/** The retention asked for, when it changed (it is set by a call of its own). */
function retentionChange(form: Form, values: InboxValues): { retention_days: number | null } | null {
  const retention = numberOrNull(values.retention_days);
  return retention === form.retention_days ? null : { retention_days: retention };
}

/** A form's spam defences, when it stops taking submissions, how long it keeps them, and whether its page keeps drafts. */
export function InboxSettings({ form }: { form: Form }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const editor = useForm<InboxValues>({ defaultValues: valuesOf(form) });
  const problem = useFormProblem(FIELDS, editor.setError);
  const errors = editor.formState.errors;
  const provider = editor.watch('spam.captcha.provider');
  // Two calls when both changed: the settings (a key may change them too), then the retention (a
  // member's session only). Each is saved or refused on its own; the form is read back after.
  const save = useMutation({
    mutationFn: async (values: InboxValues) => {
      let updated = form;
      const settings = changes(form, values);
      if (Object.keys(settings).length > 0) updated = await trpcClient.forms.update.mutate({ form_id: form.id, ...settings });
      const retention = retentionChange(form, values);
      if (retention) updated = await trpcClient.forms.setRetention.mutate({ form_id: form.id, ...retention });
      return updated;
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(trpc.forms.get.queryKey({ form_id: form.id }), updated);
      editor.reset(valuesOf(updated));
      void queryClient.invalidateQueries(trpc.forms.list.pathFilter());
      setSaved(true);
    },
    onError: (error) => {
      problem.report(error);
      void queryClient.invalidateQueries(trpc.forms.get.queryFilter({ form_id: form.id }));
    },
  });
  const submit = (values: InboxValues) => {
    problem.clear();
    setSaved(false);
    save.mutate(values);
  };
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Spam, closing, retention and drafts</h2>
      <SubmitForm className="form-editor" onSubmit={editor.handleSubmit(submit)} problem={problem} submitLabel="Save spam and closing" pending={save.isPending}>
        <fieldset>
          <legend>Spam</legend>
          <TextField
            form={editor}
            name="spam.honeypot"
            label="Honeypot field"
            autoComplete="off"
            placeholder="_gotcha"
            hint="A hidden field people never fill in: a submission with a value in it is kept as spam. The HTML above includes it."
          />
          <div className="field">
            <label htmlFor={`${id}-provider`}>Captcha</label>
            <select id={`${id}-provider`} {...editor.register('spam.captcha.provider')}>
              <option value="">None</option>
              {CAPTCHA_PROVIDERS.map((p) => (
                <option key={p} value={p}>
                  {PROVIDER_NAMES[p]}
                </option>
              ))}
            </select>
            <ErrorText id={`${id}-provider-error`} message={errorAt(errors, 'spam.captcha.provider')} />
          </div>
          <div className="field checkbox">
            <input id={`${id}-filter`} type="checkbox" aria-describedby={`${id}-filter-hint`} {...editor.register('spam_filter.enabled')} />
            <label htmlFor={`${id}-filter`}>Read each submission for spam</label>
          </div>
          <p id={`${id}-filter-hint`} className="hint">
            lfk scores what was written (its words, links, sender and script) from 0 to 1, and sends what scores above the threshold to spam, with its reasons.
            Marking a submission as spam, or not spam, teaches this workspace’s filter.
          </p>
          <ErrorText id={`${id}-filter-error`} message={errorAt(errors, 'spam_filter.enabled') ?? errorAt(errors, 'spam_filter')} />
          <TextField
            form={editor}
            name="spam_filter.threshold"
            label="Spam above this score"
            inputMode="decimal"
            hint="0.01 to 0.99: lower catches more, and risks more real submissions. Blank goes back to lfk’s own."
          />
          {provider !== '' && (
            <>
              <TextField form={editor} name="spam.captcha.site_key" label="Site key" autoComplete="off" hint="Public: it goes in your page." />
              <TextField
                form={editor}
                name="spam.captcha.secret"
                label="Secret key"
                type="password"
                autoComplete="off"
                placeholder={form.spam.captcha?.provider === provider ? 'Unchanged' : ''}
                hint={
                  form.spam.captcha?.provider === provider
                    ? 'Stored encrypted and never shown. Leave blank to keep it.'
                    : 'Stored encrypted and never shown again.'
                }
              />
            </>
          )}
        </fieldset>
        <fieldset>
          <legend>Closing</legend>
          <div className="field checkbox">
            <input id={`${id}-closed`} type="checkbox" {...editor.register('closed')} />
            <label htmlFor={`${id}-closed`}>Closed: refuse every submission</label>
          </div>
          <ErrorText id={`${id}-closed-error`} message={errorAt(errors, 'closed')} />
          <TextField form={editor} name="closes_at" label="Close at" type="datetime-local" hint="Optional: the form closes by itself then." />
          <TextField
            form={editor}
            name="max_submissions"
            label="Most submissions"
            inputMode="numeric"
            hint="Optional: the form closes once it holds this many (spam is not counted)."
          />
          <TextField
            form={editor}
            name="closed_message"
            label="Message when closed"
            autoComplete="off"
            hint="What a person who tries to send the closed form reads."
          />
        </fieldset>
        <fieldset>
          <legend>Retention</legend>
          <TextField
            form={editor}
            name="retention_days"
            label="Keep submissions for (days)"
            inputMode="numeric"
            hint={
              `Optional, ${RETENTION_DAYS.min} to ${RETENTION_DAYS.max}: older submissions are deleted. Blank keeps them until you delete them. ` +
              `Spam is deleted after ${SPAM_RETENTION_DAYS} days.`
            }
          />
        </fieldset>
        <fieldset>
          <legend>Drafts</legend>
          <div className="field checkbox">
            <input id={`${id}-drafts`} type="checkbox" aria-describedby={`${id}-drafts-hint`} {...editor.register('drafts.enabled')} />
            <label htmlFor={`${id}-drafts`}>Keep drafts</label>
          </div>
          <p id={`${id}-drafts-hint`} className="hint">
            With the browser kit on your page, what a visitor types is kept as they go and put back when they come back, so a closed tab loses nothing. Never a
            file, never a private field.
          </p>
          <ErrorText id={`${id}-drafts-error`} message={errorAt(errors, 'drafts.enabled') ?? errorAt(errors, 'drafts')} />
          <TextField
            form={editor}
            name="drafts.ttl_days"
            label="Keep a draft for (days)"
            inputMode="numeric"
            hint={`${DRAFT_TTL_DAYS.min} to ${DRAFT_TTL_DAYS.max} days after its last save, never longer than the form keeps submissions.`}
          />
          <div className="field checkbox">
            <input id={`${id}-draft-link`} type="checkbox" aria-describedby={`${id}-draft-link-hint`} {...editor.register('drafts.email_link')} />
            <label htmlFor={`${id}-draft-link`}>Offer a link by email to finish later</label>
          </div>
          <p id={`${id}-draft-link-hint`} className="hint">
            The kit adds “Finish later” to the form: the visitor gets a link to this page with their answers, for this or another device. Within the
            auto-replies’ limits per address.
          </p>
        </fieldset>
      </SubmitForm>
      <p role="status">{saved ? 'Spam and closing settings saved.' : ''}</p>
    </section>
  );
}
