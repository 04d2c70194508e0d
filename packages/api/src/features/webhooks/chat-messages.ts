import type { WebhookKind } from '@lfk/vocabulary';
import { inboxLink, submissionLink } from '../../infrastructure/dashboard-links.ts';

/** Where a message's links lead: the dashboard of the form's workspace (none for an unclaimed form). */
export interface MessageLinks {
  publicUrl: string;
  workspaceId: string | null;
}

/** An event's body as lfk writes it (events.ts), read back for a message. */
interface EventBody {
  type: string;
  data: {
    form?: { id: string; name: string; closed_message?: string | null };
    submission?: {
      id: string;
      created_at?: string;
      via?: string;
      values?: Record<string, unknown>;
      files?: { id: string; name: string; url?: string }[];
    };
  };
}

/** A message about one event, before it is written in a chat's own format. */
interface Message {
  title: string;
  /** A line under the title: what a visitor is told of a closed form, say. */
  text: string | null;
  /** Each value, by field name, as text: file fields as their files' names, with links. */
  fields: { name: string; value: string; link?: string | undefined }[];
  link: { url: string; label: string } | null;
  footer: string | null;
}

/** Values longer than this are cut: chats cap a field (Discord: 1,024 characters; Slack: 2,000 a field). */
const MAX_VALUE = 900;
/** Fields shown at most (Discord: 25 to an embed; Slack: 10 to a section, we use several). */
const MAX_FIELDS = 20;

const cut = (text: string, max = MAX_VALUE) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(String).join(', ');
  return String(value);
}

/** What a person reads about the event: the form, its values, and a link to it in the dashboard. */
function messageOf(event: EventBody, links: MessageLinks): Message {
  const form = event.data.form ?? { id: '', name: 'a form' };
  const submission = event.data.submission;
  const inbox = links.workspaceId ? inboxLink(links.publicUrl, links.workspaceId, form.id) : null;
  const opened = submission && links.workspaceId ? submissionLink(links.publicUrl, links.workspaceId, form.id, submission.id) : null;
  const files = new Map((submission?.files ?? []).map((file) => [file.id, file]));
  const fields = Object.entries(submission?.values ?? {})
    .slice(0, MAX_FIELDS)
    .map(([name, value]) => {
      // A file field's value lists its files' ids: show their names.
      const named = Array.isArray(value) && value.every((id) => files.has(String(id)));
      const shown = named ? (value as string[]).map((id) => files.get(id)!.name).join(', ') : valueText(value);
      const link = named && value.length === 1 ? files.get(String(value[0]))?.url : undefined;
      return { name: cut(name, 200), value: cut(shown), link };
    });
  const via = submission?.via === 'api_key' ? 'from a server (API key)' : submission?.via === 'browser' ? 'from a browser' : null;
  const footer = submission ? [submission.id, via].filter(Boolean).join(' · ') : null;
  const open = opened ? { url: opened, label: 'Open it in lfk' } : null;
  const toInbox = inbox ? { url: inbox, label: 'Its submissions' } : null;
  switch (event.type) {
    case 'submission.created':
      return { title: `New submission to ${form.name}`, text: null, fields, link: open, footer };
    case 'submission.released':
      return { title: `A submission to ${form.name} was released from spam`, text: null, fields, link: open, footer };
    case 'submission.deleted':
      return { title: `A submission to ${form.name} was deleted`, text: null, fields: [], link: toInbox, footer };
    case 'form.closed':
      return {
        title: `${form.name} was closed to submissions`,
        text: form.closed_message ? `Visitors are told: ${cut(form.closed_message)}` : null,
        fields: [],
        link: toInbox,
        footer: null,
      };
    case 'form.reopened':
      return { title: `${form.name} takes submissions again`, text: null, fields: [], link: toInbox, footer: null };
    default:
      return {
        title: `A test message from lfk for ${form.name}`,
        text: `This channel will get the events of ${form.name} this endpoint subscribes to.`,
        fields: [],
        link: null,
        footer: null,
      };
  }
}

/** Slack's mrkdwn takes `&`, `<` and `>` as markup: escaped, a value can neither link nor mention (`<!channel>`). */
const slackText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Slack's incoming-webhook body: the title as its notification text, a section per ten fields, the link and footer. */
function slackBody(message: Message): unknown {
  const fields = message.fields.map((f) => ({
    type: 'mrkdwn',
    text: `*${slackText(f.name)}*\n${f.link ? `<${f.link}|${slackText(f.value)}>` : slackText(f.value)}`,
  }));
  const sections = Array.from({ length: Math.ceil(fields.length / 10) }, (_, i) => ({ type: 'section', fields: fields.slice(i * 10, i * 10 + 10) }));
  const context = [message.link ? `<${message.link.url}|${slackText(message.link.label)}>` : null, message.footer ? slackText(message.footer) : null].filter(
    (part): part is string => part !== null,
  );
  return {
    text: message.title,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: cut(message.title, 150) } },
      ...(message.text ? [{ type: 'section', text: { type: 'mrkdwn', text: slackText(message.text) } }] : []),
      ...sections,
      ...(context.length ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: context.join(' · ') }] }] : []),
    ],
  };
}

/**
 * Discord's markdown, escaped: a value is shown as typed, never as formatting, a masked link, or a
 * heading, list or quote (those only at a line's start).
 */
const discordText = (text: string) => text.replace(/[\\*_~`|[\]]/g, (c) => `\\${c}`).replace(/^([#>-])/gm, '\\$1');

/** Discord's webhook body: one embed, mentions off (`@everyone` in a value pings nobody). */
function discordBody(message: Message, at: string | undefined): unknown {
  return {
    content: null,
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: cut(message.title, 250),
        ...(message.link ? { url: message.link.url } : {}),
        ...(message.text ? { description: discordText(message.text) } : {}),
        fields: message.fields.map((f) => ({
          name: cut(f.name, 250),
          value: f.link ? `[${discordText(f.value)}](${f.link})` : discordText(f.value),
          inline: false,
        })),
        ...(message.footer ? { footer: { text: message.footer } } : {}),
        ...(at ? { timestamp: at } : {}),
      },
    ],
  };
}

/**
 * The body an endpoint of `kind` is sent for an event whose JSON body is `payload`: the payload
 * itself for a `webhook`, a readable message in the chat's own format for `slack` and `discord`.
 */
export function bodyFor(kind: WebhookKind, payload: string, links: MessageLinks): string {
  if (kind === 'webhook') return payload;
  const event = JSON.parse(payload) as EventBody & { timestamp?: string };
  const message = messageOf(event, links);
  return JSON.stringify(kind === 'slack' ? slackBody(message) : discordBody(message, event.timestamp));
}
