import { rm } from 'node:fs/promises';
import { FILE_FIELD_LIMITS, FILE_LINK_TTL } from '@lfk/vocabulary';
import { z } from 'zod';
import { closer } from '../../infrastructure/background-task.ts';
import { defineFeature } from '../../feature.ts';
import { flag, optionalHttpUrl, optionalText, variable, wholeNumber } from '../../settings/env-values.ts';
import { settingsSlice } from '../../settings/settings-slice.ts';
import { parseClamdUrl } from './clamd-scanner.ts';
import { FileLinks } from './links.ts';
import { filesRouter } from './router.ts';
import { uploadSweep } from './tasks.ts';

/** `LFK_CLAMD_URL` in a form the scanner understands (`parseClamdUrl` says which). */
function validClamdUrl(value: string | undefined, ctx: z.RefinementCtx): void {
  if (value === undefined) return;
  try {
    parseClamdUrl(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
}

const filesSettings = settingsSlice({
  env: {
    LFK_MAX_FILE_SIZE: wholeNumber(1, FILE_FIELD_LIMITS.maxSize, FILE_FIELD_LIMITS.defaultMaxSize),
    LFK_MAX_SUBMISSION_SIZE: wholeNumber(1, 4 * FILE_FIELD_LIMITS.maxSize, FILE_FIELD_LIMITS.defaultSubmissionSize),
    LFK_FILE_LINK_TTL: wholeNumber(FILE_LINK_TTL.min, FILE_LINK_TTL.max, FILE_LINK_TTL.default),
    LFK_UPLOAD_SWEEP_INTERVAL: wholeNumber(2, 86_400, 60),
    LFK_UPLOAD_GRACE: wholeNumber(60, 7 * 86_400, 3_600),
    LFK_S3_ENDPOINT: optionalHttpUrl(),
    LFK_S3_BUCKET: variable(
      z
        .string()
        .regex(/^[A-Za-z0-9._-]{3,255}$/, 'Must be a bucket name: 3 to 255 letters, digits, dots, hyphens or underscores.')
        .optional(),
    ),
    LFK_S3_REGION: variable(
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be a region name such as us-east-1.')
        .default('us-east-1'),
    ),
    LFK_S3_ACCESS_KEY_ID: optionalText(256),
    LFK_S3_SECRET_ACCESS_KEY: optionalText(1024),
    LFK_S3_FORCE_PATH_STYLE: flag(false),
    LFK_CLAMD_URL: variable(z.string().optional().superRefine(validClamdUrl)),
  },
  check: (env, ctx) => {
    if ((env.LFK_S3_ACCESS_KEY_ID === undefined) !== (env.LFK_S3_SECRET_ACCESS_KEY === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['LFK_S3_SECRET_ACCESS_KEY'],
        message:
          'LFK_S3_ACCESS_KEY_ID and LFK_S3_SECRET_ACCESS_KEY go together: ' +
          "set both, or neither to use the AWS SDK's own credentials (a role, AWS_* variables, a profile).",
      });
    }
    const namesAStore =
      env.LFK_S3_ENDPOINT !== undefined || env.LFK_S3_ACCESS_KEY_ID !== undefined || env.LFK_S3_SECRET_ACCESS_KEY !== undefined || env.LFK_S3_FORCE_PATH_STYLE;
    if (env.LFK_S3_BUCKET === undefined && namesAStore) {
      ctx.addIssue({
        code: 'custom',
        path: ['LFK_S3_BUCKET'],
        message: 'Required with the other LFK_S3_* settings: without a bucket, files would go to LFK_DATA_DIR instead of the store they name.',
      });
    }
  },
  read: (e) => ({
    /** Submitted files' limits, links and sweep. */
    fileLimits: {
      maxFileSize: e.LFK_MAX_FILE_SIZE,
      maxSubmissionSize: e.LFK_MAX_SUBMISSION_SIZE,
      linkTtlSeconds: e.LFK_FILE_LINK_TTL,
      uploadSweepMs: e.LFK_UPLOAD_SWEEP_INTERVAL * 1000,
      uploadGraceMs: e.LFK_UPLOAD_GRACE * 1000,
    },
    /**
     * Where submitted files' bytes are kept: the data directory (its folder is worked out from the
     * data directory when the storage is opened), or the bucket `LFK_S3_BUCKET` names.
     */
    objectStorage:
      e.LFK_S3_BUCKET === undefined
        ? ({ kind: 'directory' } as const)
        : {
            kind: 's3' as const,
            bucket: e.LFK_S3_BUCKET,
            region: e.LFK_S3_REGION,
            endpoint: e.LFK_S3_ENDPOINT as string | undefined,
            forcePathStyle: e.LFK_S3_FORCE_PATH_STYLE,
            credentials:
              e.LFK_S3_ACCESS_KEY_ID !== undefined && e.LFK_S3_SECRET_ACCESS_KEY !== undefined
                ? { accessKeyId: e.LFK_S3_ACCESS_KEY_ID, secretAccessKey: e.LFK_S3_SECRET_ACCESS_KEY }
                : undefined,
          },
    /** Where ClamAV's daemon listens; each uploaded file is scanned before its submission is kept. Unset: no scanning. */
    clamdUrl: e.LFK_CLAMD_URL as string | undefined,
  }),
});

export const filesFeature = defineFeature({
  name: 'files',
  router: filesRouter,
  settings: filesSettings,
  services: ({ services, log, secretKey, files }, settings) => ({
    files: {
      storage: files.storage,
      scanner: files.scanner,
      links: new FileLinks(secretKey, services.publicUrl),
      settings: { ...settings.fileLimits, ...files.spool },
      log,
    },
  }),
  tasks: ({ services, log }) => [
    closer('file storage', async () => {
      await services.files.storage.close();
      await services.files.scanner?.close();
      if (services.files.settings.temporarySpool) await rm(services.files.settings.spoolDir, { recursive: true, force: true });
    }),
    uploadSweep(services.db, services.files, services.now, log),
  ],
});
