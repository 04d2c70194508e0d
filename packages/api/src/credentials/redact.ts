/**
 * Text a caller wrote (a URL, a query, a tRPC `?input=`) as the characters it stands for: each
 * character is written as itself, percent-encoded any number of times (`%5F`, `%255F`), or as a
 * JSON `\u00XX` escape (itself perhaps percent-encoded). The JSON escape is tried first, so that
 * `%5Cu005F` reads as `_`, not as a backslash.
 */
const WRITTEN_CHARACTER = /(?:\\|%(?:25)*5[Cc])u00([0-9A-Fa-f]{2})|%(?:25)*([0-9A-Fa-f]{2})|[\s\S]/g;

/**
 * An lfk secret (`lfk_`, `lfs_`, `lfc_`, `lfv_`, `lfd_`, `lfr_`, `lfi_`, `lfm_`, `lfp_`, or a webhook signing secret `whsec_`,
 * which is base64), wherever it starts: after a quote, a space, a letter. Every secret has 36 or
 * more characters after its prefix; 16 are enough to tell one (or most of one, cut short) from a
 * name that merely contains a prefix, such as a form field `Alfc_a`.
 */
const SECRET_SHAPE = /(lfk|lfs|lfc|lfv|lfd|lfr|lfi|lfm|lfp)_[0-9A-Za-z]{16,}|(whsec)_[0-9A-Za-z+/=]{16,}/g;

/** Text without an escape or a literal prefix cannot hold a secret: most URLs stop here. */
const MAY_HOLD_SECRET = /[%\\]|lf[kscvdrimp]_|whsec_/;

/**
 * `text` with every lfk secret replaced by `lfk_[redacted]` (its prefix kept), however it was
 * written, so a key pasted into a URL never reaches a log line or an error message.
 */
export function redactSecrets(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  let decoded = '';
  /** Where, in `text`, each character of `decoded` was written; one extra entry for the end. */
  const writtenAt: number[] = [];
  for (const written of text.matchAll(WRITTEN_CHARACTER)) {
    const hex = written[1] ?? written[2];
    decoded += hex === undefined ? written[0] : String.fromCharCode(Number.parseInt(hex, 16));
    writtenAt.push(written.index);
  }
  writtenAt.push(text.length);
  let redacted = '';
  let copiedUpTo = 0;
  for (const secret of decoded.matchAll(SECRET_SHAPE)) {
    redacted += `${text.slice(copiedUpTo, writtenAt[secret.index])}${secret[1] ?? secret[2]}_[redacted]`;
    copiedUpTo = writtenAt[secret.index + secret[0].length]!;
  }
  return redacted + text.slice(copiedUpTo);
}
