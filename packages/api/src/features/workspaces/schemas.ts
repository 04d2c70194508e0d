import { FILE_LINK_TTL, TEXT_LIMITS } from '@lfk/vocabulary';
import { z } from 'zod';
import { role, text, timestamp, workspaceScoped } from '../../common-schemas.ts';

export const workspace = z
  .object({
    id: z.string(),
    name: z.string(),
    role,
    file_link_ttl: z.int().nullable().describe("Seconds its files' signed download links live; null: the server's `LFK_FILE_LINK_TTL`."),
    require_two_factor: z
      .boolean()
      .describe(
        'Whether its members need a second factor on their account: a member without one reaches nothing of it but is told so ' +
          '(`403 two_factor_required`). API keys are unaffected.',
      ),
    created_at: timestamp,
  })
  .meta({ id: 'Workspace', description: "A workspace, with the caller's role in it." });
export const workspaceCreateInput = z.strictObject({ name: text(TEXT_LIMITS.workspaceName) });

export const workspaceUpdateInput = workspaceScoped
  .extend({
    name: text(TEXT_LIMITS.workspaceName).optional(),
    file_link_ttl: z
      .int()
      .min(FILE_LINK_TTL.min, `Must be at least ${FILE_LINK_TTL.min} seconds (a minute).`)
      .max(FILE_LINK_TTL.max, `Must be at most ${FILE_LINK_TTL.max} seconds (${FILE_LINK_TTL.max / 86_400} days).`)
      .nullable()
      .optional()
      .describe(
        `Seconds the signed download links of its files live (${FILE_LINK_TTL.min} to ${FILE_LINK_TTL.max}; ` +
          "never longer than the server's `LFK_FILE_LINK_TTL`); null goes back to the server's.",
      ),
    require_two_factor: z.boolean().optional().describe('Require a second factor of its members (owners; to turn it on, your own account needs one).'),
  })
  .strict()
  .refine((input) => input.name !== undefined || input.file_link_ttl !== undefined || input.require_two_factor !== undefined, {
    message: 'Give name, file_link_ttl or require_two_factor.',
    path: ['name'],
  });
export const workspaceDeleteInput = workspaceScoped.extend({ confirm: z.string().max(1024).describe("The workspace's name, typed to confirm.") }).strict();
