import { z } from 'zod';

/**
 * The host's own prompts (the `prompts` table of its admin DB, docs/rules/registry.md#bootstrap),
 * as the Prompts page and `chatos prompts` edit them. A prompt has a Chinese
 * and an English text, kept as the pair `<name>` (zh) and `<name>__en` (en)
 * that agents pick from by their language; both are registered under
 * `chatos` and granted to other apps like any prompt.
 */

export const HostPromptNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { error: 'must start with a letter or digit and use only letters, digits, ".", "_" or "-" (at most 64)' })
  .refine((name) => !name.endsWith('__en'), { error: 'must not end in "__en": that names the English text of a prompt' });

const Text = z.string().max(200_000);

export const HostPromptInputSchema = z
  .object({
    name: HostPromptNameSchema,
    title: z.string().max(200).optional(),
    zh: Text.optional(),
    en: Text.optional(),
  })
  .strict()
  .refine((p) => (p.zh ?? '').trim() !== '' || (p.en ?? '').trim() !== '', { error: 'give a Chinese or an English text (or both)', path: ['zh'] });

export const HostPromptViewSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  zh: z.string().optional(),
  en: z.string().optional(),
  /** The registry ids of its texts (`chatos::<name>`, `chatos::<name>__en`): what agents select and grants name. */
  ids: z.array(z.string()),
  /** Apps granted at least one of its texts. */
  grantedTo: z.array(z.string()),
});
export type HostPromptView = z.infer<typeof HostPromptViewSchema>;
