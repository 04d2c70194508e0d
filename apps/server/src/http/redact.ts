/** Anything shaped like an lfk secret (`lfk_`, `lfs_`, `lfc_`, `lfv_`), wherever a caller put it. */
const SECRET_SHAPE = /\b(lfk|lfs|lfc|lfv)_[0-9A-Za-z]+/g;

export function redactSecrets(text: string): string {
  return text.replace(SECRET_SHAPE, '$1_[redacted]');
}
