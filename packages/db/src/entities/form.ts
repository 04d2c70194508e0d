import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { CAPTCHA_PROVIDERS, FORM_STATES, SUBMISSION_MODES, TEXT_LIMITS, UNKNOWN_FIELD_POLICIES } from '@lfk/vocabulary';
import { FormRepository } from '../repositories/forms.ts';
import { UpdatableEntity } from './base.ts';
import { Project } from './project.ts';
import { Workspace } from './workspace.ts';

/** An origin a form refused, and when it last did (ISO 8601). */
export interface RefusedOrigin {
  origin: string;
  at: string;
}

/** A form's auto-reply to the person who submitted: to the address in `email_field`, with `{field}` placeholders. */
export interface AutoReply {
  enabled: boolean;
  email_field: string;
  subject: string;
  text: string;
  /** The account that last set it, whose share of auto-replies it spends (a key's maker); never on the wire. */
  set_by?: string;
}

/** Whether a page may keep a visitor's answers as a draft, and for how many days after its last save. */
/** The content filter (`@lfk/spam-filter`) on a form: on by default, at the shipped model's threshold when `threshold` is null. */
export interface SpamFilterSettings {
  enabled: boolean;
  threshold: number | null;
}

export interface DraftSettings {
  enabled: boolean;
  ttl_days: number;
  /** Whether the page may email a visitor a link to finish later (absent in settings saved before it: no). */
  email_link?: boolean;
}

/** One of a form's notification addresses, and whether it was verified (by its link, or as a member's own). */
export interface NotifyAddress {
  email: string;
  verified: boolean;
}

export interface StoredField {
  name: string;
  type: string;
  required: boolean;
  label?: string;
  options?: string[];
  /** Never kept in a draft (a password, a card number): the page does not save it, and lfk refuses a draft that holds it. */
  private?: boolean;
  /** A file field's limits: bytes per file, the types it takes, whether it takes several and how many. */
  max_size?: number;
  accept?: string[];
  multiple?: boolean;
  max_files?: number;
}

/**
 * A form. It is born claimed (in a workspace) when made with a key or a session, or unclaimed
 * (no workspace, a hashed claim token) when made anonymously.
 */
export const Form = defineEntity({
  name: 'Form',
  tableName: 'forms',
  extends: UpdatableEntity,
  repository: () => FormRepository,
  properties: {
    /** Null while unclaimed; a deleted workspace takes its forms with it. */
    workspace: () => p.manyToOne(Workspace).nullable().deleteRule('cascade'),
    project: () => p.manyToOne(Project).nullable(),
    name: p.string().length(TEXT_LIMITS.formName),
    state: p.enum(FORM_STATES),
    schema: p.json<StoredField[]>(),
    /** What a submitted field the schema does not name gets: refused, kept as text, or dropped. */
    unknownFields: p.enum(UNKNOWN_FIELD_POLICIES).default('reject'),
    submissionMode: p.enum(SUBMISSION_MODES).default('browser'),
    allowedOrigins: p.json<string[]>(),
    /** Where submissions are emailed, in order (at most 5), each sent only once verified. */
    notifyEmails: p.json<NotifyAddress[]>(),
    /**
     * The verified addresses notifications keep going to while none of a changed `notifyEmails` is
     * verified yet, so that changing them never silently stops notifications; null once one is.
     */
    notifyFallback: p.json<string[]>().nullable(),
    /**
     * The last origins whose browser submissions (or CORS preflights) were refused, newest first:
     * how an owner finds the origin missing from `allowedOrigins`. Written by `noteRefusedOrigin`.
     */
    refusedOrigins: p.json<RefusedOrigin[]>().nullable(),
    redirectUrl: p.string().length(TEXT_LIMITS.url).nullable(),
    /** Where a refused HTML form post sends the visitor (with `?error=&fields=`), instead of lfk's page. */
    errorRedirectUrl: p.string().length(TEXT_LIMITS.url).nullable(),
    claimTokenHash: p.string().length(64).nullable().unique(),
    /** When the last verification email was queued; resends are spaced from it. */
    verificationSentAt: p.datetime().nullable(),
    /** A field name outside the schema; a submission with a value in it is spam. */
    honeypot: p.string().length(64).nullable(),
    captchaProvider: p.enum(CAPTCHA_PROVIDERS).nullable(),
    captchaSiteKey: p.string().length(TEXT_LIMITS.captchaSiteKey).nullable(),
    /** The provider's secret, sealed (`SecretBox`): lfk must send it to verify, and never shows it. */
    captchaSecretSealed: p.text().nullable(),
    /** Closed by a person (or a key); `closesAt` and `maxSubmissions` close it by themselves, at submission time. */
    closed: p.boolean().default(false),
    closesAt: p.datetime().nullable(),
    maxSubmissions: p.integer().nullable(),
    closedMessage: p.string().length(TEXT_LIMITS.closedMessage).nullable(),
    /** Submissions older than this many days are deleted by the retention sweep; null keeps them. */
    retentionDays: p.integer().nullable(),
    /** The reply each real submission sends the address it gave, when enabled; null when never set. */
    autoReply: p.json<AutoReply>().nullable(),
    /** Auto-replies not sent (the address stopped them, or a limit was reached): the owner's sign that someone tries. */
    autoRepliesSkipped: p.integer().default(0),
    /** Drafts: a page may keep what a visitor typed (`Draft`); null when never set (off). */
    drafts: p.json<DraftSettings>().nullable(),
    /** The content filter; null when never set (on, at the shipped threshold). */
    spamFilter: p.json<SpamFilterSettings>().nullable(),
  },
  indexes: [{ properties: ['workspace', 'id'] }],
});
export type IForm = InferEntity<typeof Form>;
