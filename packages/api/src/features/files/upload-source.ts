/**
 * A submission's `multipart/form-data` body as the transport hands it to the submission procedure:
 * read only when the procedure asks, under the limits it gives (`features/files/intake.ts`).
 */

/** One part of a `multipart/form-data` body, as the transport hands it over. */
export type UploadPart =
  | { kind: 'value'; field: string; value: string }
  | { kind: 'file'; field: string; filename: string; declaredType: string; chunks: AsyncIterable<Buffer> };

/** What the transport's parser must refuse by itself (it answers `payload_too_large` or the code given by the intake's errors). */
export interface UploadLimits {
  /** Bytes one file may reach before the parser stops it (the intake's own per-field limit is exact). */
  fileSize: number;
  files: number;
  values: number;
  /** Bytes one value may have. */
  valueSize: number;
}

/** A submission's body still to be read: the transport reads it only once the procedure has admitted the request. */
export interface UploadSource {
  parts(limits: UploadLimits): AsyncIterable<UploadPart>;
}
