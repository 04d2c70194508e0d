import type { FileReading } from '@lfk/db';
import type { z } from 'zod';
import type { linkedFile, submissionFile } from './schemas.ts';
import type { FileLinks } from './links.ts';

export const fileToWire = (file: FileReading): z.input<typeof submissionFile> => ({
  id: file.id,
  field: file.field,
  name: file.name,
  size: file.size,
  content_type: file.contentType,
  sha256: file.sha256,
  status: file.status,
  malware: file.malwareSignature,
});

/** A file with its signed link, valid until `expiresAt` (none for a quarantined file). */
export const linkedFileToWire = (file: FileReading, links: FileLinks, expiresAt: Date): z.input<typeof linkedFile> => ({
  ...fileToWire(file),
  url: file.status === 'stored' ? links.url(file.id, expiresAt) : null,
});
