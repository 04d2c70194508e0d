import { hash } from 'node:crypto';
import type { Message } from '@lfk/spam-filter';
import { BoundedTtlMap } from '../../bounded-ttl-map.ts';

/** A day: how long a message is remembered from the first time it was seen. */
const REMEMBERED_MS = 24 * 3_600_000;
/** Messages remembered at once by a process; past it, the oldest go. */
const MESSAGES = 20_000;
/** Forms counted per message: past a few, the count only has to say "many". */
const FORMS_COUNTED = 20;
/** Shorter messages ("Hello", "Thanks!") come to many forms honestly. */
const SHORTEST = 40;

/**
 * Which forms each message came to in the last day, on this process: the same words sprayed at
 * many forms, across workspaces, is a bot's mark that no single form's inbox shows. Only a hash of
 * the message is kept (its long answers, folded to lowercase and single spaces), never its text;
 * and a reason names no form and no workspace, only how many.
 */
export class MessageSightings {
  readonly #seen = new BoundedTtlMap<Set<string>>(MESSAGES);

  /** Notes that `message` came to `formId` now; answers how many distinct forms it came to in the day. */
  note(formId: string, message: Message, now = Date.now()): number {
    const text = message.long.join('\n').toLowerCase().replace(/\s+/g, ' ').trim();
    if (text.length < SHORTEST) return 1;
    const key = hash('sha256', text.slice(0, 4000), 'base64');
    let forms = this.#seen.get(key, now);
    if (!forms) {
      forms = new Set();
      this.#seen.set(key, forms, now + REMEMBERED_MS);
    }
    if (forms.size < FORMS_COUNTED) forms.add(formId);
    return forms.size;
  }
}
