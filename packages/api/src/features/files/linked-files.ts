import { type FileReading, SubmissionFile } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { z } from 'zod';
import type { linkedFile } from './schemas.ts';
import { linkedFileToWire } from './serializers.ts';
import { linkExpiry } from './links.ts';
import type { FilesServices } from './services.ts';

type LinkedFile = z.input<typeof linkedFile>;
type LinkServices = FilesServices & { now(): Date };

/**
 * Files as they leave lfk (webhook payloads, `lfk listen`'s events, exports): each with a signed
 * link living as long as the workspace's `file_link_ttl` says (never past the server's).
 */
export async function linkFiles(em: EntityManager, services: LinkServices, workspaceId: string | null, files: readonly FileReading[]): Promise<LinkedFile[]> {
  if (files.length === 0) return [];
  const expiresAt = await linkExpiry(em, workspaceId, services.files.settings.linkTtlSeconds, services.now());
  return files.map((file) => linkedFileToWire(file, services.files.links, expiresAt));
}

/** Whether a submission with these files is held back from webhooks: one of them is quarantined (malware is not sent on). */
export const holdsMalware = (files: readonly Pick<FileReading, 'status'>[]) => files.some((file) => file.status === 'quarantined');

/** Each of these submissions' files, and the link of a file as it leaves lfk now. */
async function filesAndLink(em: EntityManager, services: LinkServices, workspaceId: string | null, submissionIds: readonly string[]) {
  const byId = await em.getRepository(SubmissionFile).ofSubmissions([...submissionIds]);
  // No file, no link to sign: the workspace's link lifetime is not read.
  const expiresAt = byId.size === 0 ? null : await linkExpiry(em, workspaceId, services.files.settings.linkTtlSeconds, services.now());
  return { byId, link: (file: FileReading) => linkedFileToWire(file, services.files.links, expiresAt!) };
}

/** The linked files of each of these submissions (those without files get an empty list). */
export async function linkedFilesOf(
  em: EntityManager,
  services: LinkServices,
  workspaceId: string | null,
  submissionIds: readonly string[],
): Promise<(id: string) => LinkedFile[]> {
  const { byId, link } = await filesAndLink(em, services, workspaceId, submissionIds);
  return (id) => (byId.get(id) ?? []).map(link);
}

/**
 * The linked files of each of these submissions as a webhook sends them on: null for a submission
 * with a quarantined file (malware is not sent on).
 */
export async function sendableFilesOf(
  em: EntityManager,
  services: LinkServices,
  workspaceId: string | null,
  submissionIds: readonly string[],
): Promise<(id: string) => LinkedFile[] | null> {
  const { byId, link } = await filesAndLink(em, services, workspaceId, submissionIds);
  return (id) => {
    const files = byId.get(id) ?? [];
    return holdsMalware(files) ? null : files.map(link);
  };
}
