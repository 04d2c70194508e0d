// Files through the CLI, against the real server: lfk submissions create --file (streamed from
// disk, standard input too), refusals, what get and list show of files, lfk submissions download
// (to a file, a folder, standard output), file fields in --field, and a workspace's file link TTL.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newHome, owner, ownerKey, server, startWorld, stopWorld } from './harness.ts';

beforeAll(() => startWorld());
afterAll(() => stopWorld());

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), Buffer.alloc(2048, 0x20), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A folder of this file's own under the owner's home, holding `files`. */
async function folderWith(files: Record<string, Buffer>): Promise<string> {
  const dir = join(owner.dir, `files-${Math.random().toString(36).slice(2, 8)}`);
  await mkdir(dir);
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
  return dir;
}

/** A form of the owner's workspace with file fields, taking submissions with a key; and the key. */
async function applicationsForm() {
  const { key } = await ownerKey(`files-${Math.random().toString(36).slice(2, 8)}`);
  const asKey = { env: { LFK_API_KEY: key } };
  const form = await owner.lfk(
    [
      'forms',
      'create',
      '--name',
      'Applications',
      '--mode',
      'api_key',
      '--json',
      '--field',
      'name:text:required',
      '--field',
      'cv:file=application/pdf:required:max=64KiB',
      '--field',
      'photos:file=image/*:multiple=3',
    ],
    asKey,
  );
  expect(form.code, form.stderr).toBe(0);
  return { formId: form.json.id as string, asKey };
}

describe('lfk submissions create --file', () => {
  it('sends values and files as multipart: stored as they are on disk, once per idempotency key; get and list show them by name', async () => {
    const { formId, asKey } = await applicationsForm();
    const shown = await owner.lfk(['forms', 'get', formId], asKey);
    expect(shown.stdout).toMatch(/cv\s+file\s+yes\s+.*application\/pdf; max 64\.0 KiB; one file/);
    expect(shown.stdout).toMatch(/photos\s+file\s+no\s+.*image\/\*; max 10\.0 MiB; up to 3 files/);

    const dir = await folderWith({ 'Ada CV.pdf': PDF, 'a.png': PNG, 'b.png': Buffer.concat([PNG, Buffer.from('b')]) });
    const args = [
      'submissions',
      'create',
      formId,
      '--data',
      'name=Ada',
      '--file',
      `cv=${join(dir, 'Ada CV.pdf')}`,
      '--file',
      `photos=${join(dir, 'a.png')}`,
      '--file',
      `photos=${join(dir, 'b.png')}`,
    ];
    const created = await owner.lfk([...args, '--idempotency-key', 'files-once', '--json'], asKey);
    expect(created.code, created.stderr).toBe(0);
    const id = created.json.id as string;
    expect(created.json).toMatchObject({ id: expect.stringMatching(/^sub_/), form_id: formId });
    const again = await owner.lfk([...args, '--idempotency-key', 'files-once', '--json'], asKey);
    expect(again.json.id).toBe(id);
    expect((await server.sql('select count(*)::int as n from submission_files where submission_id = ?', [id]))[0]!.n).toBe(3);

    const read = await owner.lfk(['submissions', 'get', formId, id, '--json']);
    expect(read.json.files.map((f: Record<string, unknown>) => [f.field, f.name, f.size, f.content_type, f.sha256, f.status])).toEqual([
      ['cv', 'Ada CV.pdf', PDF.length, 'application/pdf', sha256(PDF), 'stored'],
      ['photos', 'a.png', PNG.length, 'image/png', sha256(PNG), 'stored'],
      ['photos', 'b.png', PNG.length + 1, 'image/png', sha256(await readFile(join(dir, 'b.png'))), 'stored'],
    ]);

    const human = await owner.lfk(['submissions', 'get', formId, id]);
    expect(human.stdout).toMatch(/cv:\n {2}Ada CV\.pdf\n/);
    expect(human.stdout).toMatch(/photos:\n {2}a\.png, b\.png\n/);
    expect(human.stdout).toMatch(new RegExp(`${read.json.files[0].id}\\s+cv\\s+Ada CV\\.pdf\\s+2\\.1 KiB\\s+application/pdf\\s+stored`));
    const list = await owner.lfk(['submissions', 'list', formId]);
    expect(list.stdout).toContain('name=Ada cv=Ada CV.pdf photos=a.png, b.png');
  });

  it('reads a file from standard input, and a form with files only needs no --data', async () => {
    const { key } = await ownerKey('files-stdin');
    const form = await owner.lfk(['forms', 'create', '--name', 'Upload', '--mode', 'api_key', '--field', 'doc:file:required', '--json'], {
      env: { LFK_API_KEY: key },
    });
    const created = await owner.lfk(['submissions', 'create', form.json.id, '--file', 'doc=-', '--json'], {
      env: { LFK_API_KEY: key },
      input: PDF.toString('latin1'),
    });
    expect(created.code, created.stderr).toBe(0);
    const read = await owner.lfk(['submissions', 'get', form.json.id, created.json.id, '--json']);
    expect(read.json.files).toMatchObject([{ field: 'doc', name: 'stdin', size: PDF.length, sha256: sha256(PDF) }]);
  });

  it(
    "lfk's refusals: a type its field does not take (a large file too: its answer is read, not a broken connection), " +
      'a file too large, a field that takes none',
    async () => {
      const { formId, asKey } = await applicationsForm();
      const { key } = await ownerKey('files-large');
      const large = await owner.lfk(['forms', 'create', '--name', 'Large', '--mode', 'api_key', '--field', 'doc:file=application/pdf', '--json'], {
        env: { LFK_API_KEY: key },
      });
      const dir = await folderWith({
        'cv.pdf': HTML,
        'big.pdf': Buffer.concat([PDF, Buffer.alloc(65 * 1024)]),
        'ok.pdf': PDF,
        'page.pdf': Buffer.concat([HTML, Buffer.alloc(8 * 1024 * 1024, 0x20)]),
      });

      const refused = await owner.lfk(['submissions', 'create', formId, '--data', 'name=Eve', '--file', `cv=${join(dir, 'cv.pdf')}`], asKey);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('error: file_type_not_accepted:');
      expect(refused.stderr).toContain("judged by its bytes, not its name: see the types its field accepts with 'lfk forms get <form_id>'");
      const asJson = await owner.lfk(['submissions', 'create', formId, '--data', 'name=Eve', '--file', `cv=${join(dir, 'cv.pdf')}`, '--json'], asKey);
      expect(JSON.parse(asJson.stderr).error).toMatchObject({ code: 'file_type_not_accepted', details: [{ path: 'cv' }] });

      const early = await owner.lfk(['submissions', 'create', large.json.id, '--file', `doc=${join(dir, 'page.pdf')}`], { env: { LFK_API_KEY: key } });
      expect(early.code).toBe(1);
      expect(early.stderr).toContain('error: file_type_not_accepted:');

      const tooLarge = await owner.lfk(['submissions', 'create', formId, '--data', 'name=Eve', '--file', `cv=${join(dir, 'big.pdf')}`], asKey);
      expect(tooLarge.code).toBe(1);
      expect(tooLarge.stderr).toContain('error: file_too_large:');
      const notAFileField = await owner.lfk(
        ['submissions', 'create', formId, '--data', 'name=Eve', '--file', `cv=${join(dir, 'ok.pdf')}`, '--file', `name=${join(dir, 'ok.pdf')}`],
        asKey,
      );
      expect(notAFileField.code).toBe(1);
      expect(notAFileField.stderr).toContain('error: invalid_submission:');
      expect(notAFileField.stderr).toContain('--file <field>=<path>');
      expect(await server.sql('select id from submissions where form_id in (?, ?)', [formId, large.json.id])).toEqual([]);
    },
  );

  it('a missing or unreadable file is a usage error naming the flag, before any request', async () => {
    const { formId, asKey } = await applicationsForm();
    const dir = await folderWith({ 'cv.pdf': PDF });
    const cases: [string[], string, string][] = [
      [['--file', `cv=${join(dir, 'missing.pdf')}`], 'unreadable_file', `--file cv=${join(dir, 'missing.pdf')}: no such file.`],
      [['--file', `cv=${dir}`], 'unreadable_file', `--file cv=${dir}: not a file.`],
      [['--file', 'cv'], 'invalid_file', '--file "cv" is not field=path.'],
      [['--file', 'cv=-', '--file', 'photos=-'], 'invalid_file', 'Only one --file can read standard input (-).'],
      [['--file', 'cv=-', '--data-json', '-'], 'conflicting_flags', 'Only one of --data-json and --file can read standard input (-).'],
    ];
    // Against a port where nothing listens: a request would be a network error, not a usage one.
    const nowhere = { env: { ...asKey.env, LFK_BASE_URL: 'http://127.0.0.1:9' } };
    for (const [flags, code, message] of cases) {
      const res = await owner.lfk(['submissions', 'create', formId, '--data', 'name=Eve', ...flags], nowhere);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(`error: ${code}: ${message}`);
    }
  });
});

describe('lfk submissions download', () => {
  it(
    'writes a file under its own name, never over another unless --force; to a path; to standard output; ' +
      "a quarantined file's malware is shown and refused",
    async () => {
      const { formId, asKey } = await applicationsForm();
      const dir = await folderWith({ 'cv.pdf': PDF });
      const created = await owner.lfk(['submissions', 'create', formId, '--data', 'name=Ada', '--file', `cv=${join(dir, 'cv.pdf')}`, '--json'], asKey);
      const [file] = (await owner.lfk(['submissions', 'get', formId, created.json.id, '--json'])).json.files;
      const into = await folderWith({});
      const download = ['submissions', 'download', formId, created.json.id, file.id];

      const written = await owner.lfk([...download, '-o', `${into}/`]);
      expect(written.code, written.stderr).toBe(0);
      expect(written.stdout).toBe(`Wrote ${join(into, 'cv.pdf')} (2.1 KiB, application/pdf).\n`);
      expect((await readFile(join(into, 'cv.pdf'))).equals(PDF)).toBe(true);

      await writeFile(join(into, 'cv.pdf'), 'mine');
      const refused = await owner.lfk([...download, '-o', into]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`error: file_exists: ${join(into, 'cv.pdf')} is already there.`);
      expect(await readFile(join(into, 'cv.pdf'), 'utf8')).toBe('mine');
      const forced = await owner.lfk([...download, '-o', join(into, 'cv.pdf'), '--force', '--json']);
      expect(forced.json).toEqual({ name: 'cv.pdf', size: PDF.length, content_type: 'application/pdf', path: join(into, 'cv.pdf') });
      expect((await readFile(join(into, 'cv.pdf'))).equals(PDF)).toBe(true);
      const renamed = await owner.lfk([...download, '-o', join(into, 'renamed.pdf')]);
      expect(renamed.code, renamed.stderr).toBe(0);
      expect((await readFile(join(into, 'renamed.pdf'))).equals(PDF)).toBe(true);
      // Written beside the target and put in place whole: nothing partial is left, refused or not.
      expect((await readdir(into)).sort()).toEqual(['cv.pdf', 'renamed.pdf']);

      const toStdout = await owner.lfk([...download, '-o', '-']);
      expect(toStdout.code, toStdout.stderr).toBe(0);
      expect(toStdout.stdout).toBe(PDF.toString('latin1'));

      const unknown = await owner.lfk(['submissions', 'download', formId, created.json.id, 'file_nothing', '-o', into]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('error: file_not_found:');
      const withKey = await owner.lfk(download, asKey);
      expect(withKey.code).toBe(4);

      // As the scanner leaves a file it found malware in (scanning itself is the server suite's).
      await server.sql("update submission_files set status = 'quarantined', malware_signature = 'Eicar-Test-Signature' where id = ?", [file.id]);
      const shown = await owner.lfk(['submissions', 'get', formId, created.json.id]);
      expect(shown.stdout).toMatch(/quarantined: Eicar-Test-Signature/);
      const quarantined = await owner.lfk([...download, '-o', join(into, 'bad.pdf')]);
      expect(quarantined.code).toBe(1);
      expect(quarantined.stderr).toContain('error: file_quarantined:');
      expect(quarantined.stderr).toContain('it cannot be downloaded');
    },
  );
});

describe('lfk workspaces update --file-link-ttl', () => {
  it('sets how long signed file links live (a duration, seconds, or the default); rename still works', async () => {
    const ttl = async () => (await owner.lfk(['workspaces', 'list', '--json'])).json.data[0].file_link_ttl;
    const set = await owner.lfk(['workspaces', 'update', '--file-link-ttl', '3d']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('now live 3 days.');
    expect(await ttl()).toBe(259_200);
    expect((await owner.lfk(['workspaces', 'update', '--file-link-ttl', '7200', '--json'])).json).toMatchObject({ file_link_ttl: 7200 });
    expect(await ttl()).toBe(7200);
    expect((await owner.lfk(['workspaces', 'list'])).stdout).toMatch(/2 hours/);

    const tooShort = await owner.lfk(['workspaces', 'update', '--file-link-ttl', '30s']);
    expect(tooShort.code).toBe(1);
    expect(tooShort.stderr).toContain('file_link_ttl');
    const bogus = await owner.lfk(['workspaces', 'update', '--file-link-ttl', 'soon']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('error: invalid_duration: --file-link-ttl takes a duration');
    expect((await owner.lfk(['workspaces', 'update'])).code).toBe(2);

    const back = await owner.lfk(['workspaces', 'update', '--file-link-ttl', 'default', '--name', 'Files Inc']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain("as long as the server's LFK_FILE_LINK_TTL says");
    expect(await ttl()).toBeNull();
    const renamed = await owner.lfk(['workspaces', 'rename', 'Files Again']);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect((await owner.lfk(['workspaces', 'list', '--json'])).json.data[0].name).toBe('Files Again');

    // A member is not an owner: refused, nothing changed.
    const member = await newHome();
    expect((await member.lfk(['workspaces', 'update', '--file-link-ttl', '1d'])).code).not.toBe(0);
  });
});
