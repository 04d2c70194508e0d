import { CAPTCHA_PROVIDERS } from '@lfk/vocabulary';
import { z } from 'zod';
import { fieldType } from '../forms/schemas.ts';

/** One field as a page renders and checks it: the limits are the ones lfk applies to what is sent. */
export const publicField = z
  .object({
    name: z.string(),
    type: fieldType,
    label: z.string().nullable().describe('The label the owner gave it; null when none (show the name).'),
    required: z.boolean(),
    max_length: z.int().optional().describe('The most characters a value may have (text, textarea, email, url).'),
    options: z.array(z.string()).optional().describe('A select field: the choices it offers, and takes.'),
    private: z.boolean().optional().describe('True for a field never kept in a draft (a password, a card number): a page does not save it.'),
    accept: z.array(z.string()).optional().describe('A file field: the types it takes (judged by the bytes); any type when left out.'),
    max_size: z.int().optional().describe("A file field: the most bytes one file may have, this server's limit included."),
    multiple: z.boolean().optional().describe('A file field: whether it takes several files.'),
    max_files: z.int().optional().describe('A file field: the most files it takes.'),
  })
  .meta({ id: 'PublicField' });

/**
 * What a page needs to render and send a form, and nothing a key or a member sees beyond it: no
 * notify addresses, no webhooks, no counts, no captcha secret.
 */
export const publicForm = z
  .object({
    id: z.string(),
    name: z.string(),
    open: z.boolean().describe('Not closed by hand nor past its `closes_at`. A capped form that is full says so when a submission is refused.'),
    closed_message: z.string().nullable().describe("What the owner says to a visitor of a closed form; null for lfk's own words."),
    fields: z.array(publicField),
    honeypot_field: z.string().nullable().describe('A field to leave empty (and hidden): a submission that fills it is spam.'),
    captcha: z
      .object({ provider: z.enum(CAPTCHA_PROVIDERS), site_key: z.string() })
      .nullable()
      .describe('The widget to render, with its public site key.'),
    drafts: z.boolean().describe("Whether the page may save a visitor's answers as a draft to finish later."),
    draft_email_link: z.boolean().describe('Whether the page may offer to email the visitor a link to finish their draft later.'),
  })
  .meta({ id: 'PublicForm' });
