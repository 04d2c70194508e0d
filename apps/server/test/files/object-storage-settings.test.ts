import { join } from 'node:path';
import { loadConfig, objectStorageOf } from '@lfk/server';
import { describe, expect, it } from 'vitest';

// LFK_S3_*: which storage the settings choose, and the combinations refused at start. No server.

describe('where files are stored (LFK_S3_*)', () => {
  it('in <LFK_DATA_DIR>/files by default, and in a temporary folder with memory://', () => {
    expect(objectStorageOf(loadConfig({ LFK_DATA_DIR: '/var/lib/lfk' }))).toEqual({ kind: 'directory', root: join('/var/lib/lfk', 'files') });
    expect(objectStorageOf(loadConfig({}))).toEqual({ kind: 'directory', root: join('./.lfk/data', 'files') });
    expect(objectStorageOf(loadConfig({ LFK_DATA_DIR: 'memory://' }))).toEqual({ kind: 'directory', root: null });
    // A data directory set after loading (as a test's memory://) takes its files with it.
    expect(objectStorageOf({ ...loadConfig({}), dataDir: 'memory://' })).toEqual({ kind: 'directory', root: null });
  });

  it('in the bucket LFK_S3_BUCKET names, with every S3 setting', () => {
    const config = loadConfig({
      LFK_S3_BUCKET: 'lfk-files',
      LFK_S3_ENDPOINT: 'https://minio.internal:9000',
      LFK_S3_REGION: 'eu-west-3',
      LFK_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      LFK_S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      LFK_S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.objectStorage).toEqual({
      kind: 's3',
      bucket: 'lfk-files',
      endpoint: 'https://minio.internal:9000',
      region: 'eu-west-3',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
    });
  });

  it('on AWS with the SDK’s own credentials (a role, AWS_* variables, a profile) when no key is given', () => {
    expect(loadConfig({ LFK_S3_BUCKET: 'lfk-files' }).objectStorage).toEqual({
      kind: 's3',
      bucket: 'lfk-files',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: undefined,
    });
  });

  it('refuses half a key pair, S3 settings without a bucket, and malformed values, naming each', () => {
    expect(() => loadConfig({ LFK_S3_BUCKET: 'lfk-files', LFK_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE' })).toThrow(
      /LFK_S3_SECRET_ACCESS_KEY: LFK_S3_ACCESS_KEY_ID and LFK_S3_SECRET_ACCESS_KEY go together/,
    );
    expect(() => loadConfig({ LFK_S3_BUCKET: 'lfk-files', LFK_S3_SECRET_ACCESS_KEY: 'secret' })).toThrow(/go together/);
    for (const env of [
      { LFK_S3_ENDPOINT: 'https://minio.internal:9000' },
      { LFK_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE', LFK_S3_SECRET_ACCESS_KEY: 'secret' },
      { LFK_S3_FORCE_PATH_STYLE: 'true' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(/LFK_S3_BUCKET: Required with the other LFK_S3_\* settings/);
    }
    expect(() => loadConfig({ LFK_S3_BUCKET: 'a/b' })).toThrow(/LFK_S3_BUCKET: Must be a bucket name/);
    expect(() => loadConfig({ LFK_S3_BUCKET: 'lfk-files', LFK_S3_ENDPOINT: 'minio:9000' })).toThrow(/LFK_S3_ENDPOINT: Must be an http\(s\) URL/);
    expect(() => loadConfig({ LFK_S3_BUCKET: 'lfk-files', LFK_S3_FORCE_PATH_STYLE: 'sometimes' })).toThrow(/LFK_S3_FORCE_PATH_STYLE/);
  });

  it('never repeats the secret in a refusal', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
    expect(() => loadConfig({ LFK_S3_SECRET_ACCESS_KEY: secret })).toThrow();
    try {
      loadConfig({ LFK_S3_SECRET_ACCESS_KEY: secret });
    } catch (error) {
      expect((error as Error).message).not.toContain(secret);
    }
  });
});
