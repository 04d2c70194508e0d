/** A stored submission is a real one, or spam kept aside (no email, no webhook, deleted after `SPAM_RETENTION_DAYS`). */
export const SUBMISSION_STATUSES = ['ok', 'spam'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/**
 * Why a submission is spam: its honeypot field was filled in, the captcha provider could not be
 * reached to verify its token (kept, not lost), the content filter scored it above its form's
 * threshold (`spam_reasons` says what it read), or a member marked it.
 */
export const SPAM_REASONS = ['honeypot', 'captcha_unverified', 'content', 'marked'] as const;
export type SpamReason = (typeof SPAM_REASONS)[number];

/** Each spam reason as the dashboard's inbox says it (the CLI prints the code). */
export const SPAM_REASON_WORDS: Readonly<Record<SpamReason, string>> = {
  honeypot: 'Filled in the hidden field',
  captcha_unverified: 'Captcha could not be checked',
  content: 'Its content reads as spam',
  marked: 'Marked by a person',
};

/**
 * What the content filter noticed in a submission (DESIGN §19's `spam_reasons`, each with a
 * sentence): many links, a link shortener, a disposable sender address, words mixing scripts, a
 * script the workspace never kept a submission in, HTML markup, words the workspace marked as spam
 * before, words common in spam, the same message sent to many forms; and rspamd's verdict, where one is asked (`LFK_RSPAMD_URL`).
 */
export const CONTENT_SIGNALS = [
  'many_links',
  'link_shortener',
  'disposable_sender',
  'mixed_scripts',
  'unexpected_script',
  'html',
  'marked_words',
  'spammy_words',
  'seen_across_forms',
  'rspamd',
] as const;
export type ContentSignal = (typeof CONTENT_SIGNALS)[number];

/** Spam is deleted this many days after it arrived, whatever the form's own retention. */
export const SPAM_RETENTION_DAYS = 30;

/** How a stored submission arrived. */
export const SUBMISSION_SOURCES = ['browser', 'api_key'] as const;
export type SubmissionSource = (typeof SUBMISSION_SOURCES)[number];
