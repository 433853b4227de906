import { z } from 'zod';
import { PluginSourceSchema } from './appContribution.js';
import { GrantSchema } from './registry.js';

/** One plugin root as the Apps page and `chatos roots list` show it. */
export const PluginRootViewSchema = z.object({
  dir: z.string(),
  source: PluginSourceSchema,
  /** Added by the user for every process (`chatos roots add`); false for the built-in and user roots and for this run's `--plugins`. */
  remembered: z.boolean(),
  exists: z.boolean(),
});
export type PluginRootView = z.infer<typeof PluginRootViewSchema>;

/** What `chatos registry prune` (and the Apps page's Prune) removes, or would remove. */
export const PruneResultSchema = z.object({
  registrations: z.array(z.object({ kind: z.enum(['server', 'prompt']), id: z.string(), reason: z.string(), grants: z.array(GrantSchema) })),
  apps: z.array(z.string()),
});
