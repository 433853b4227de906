import { z } from 'zod';
import { RunPlanSchema, TrustChangesSchema } from './trust.js';

/** One line of what will run, before and after an update: `+` after only, `-` before only, ` ` both. */
export const PlanLineSchema = z.object({ op: z.enum(['+', '-', ' ']), text: z.string() });

/**
 * Installing a plugin whose id is installed already updates it in place:
 * what it ran and what it will run, the files that change, and whether it
 * was trusted (an update leaves its trust "changed" until trusted again;
 * its registrations and the grants on them stay).
 */
export const PluginUpdateSchema = z.object({
  pluginId: z.string(),
  dir: z.string(),
  before: RunPlanSchema,
  after: RunPlanSchema,
  runPlanChanged: z.boolean(),
  lines: z.array(PlanLineSchema),
  /** Files added, removed, modified; absent when the installed folder cannot be read. */
  files: TrustChangesSchema.optional(),
  wasTrusted: z.boolean(),
});
export type PluginUpdate = z.infer<typeof PluginUpdateSchema>;

/** A grant another app has on something a plugin registers, which uninstalling it drops. */
export const DroppedGrantSchema = z.object({ kind: z.enum(['server', 'prompt']), id: z.string(), appId: z.string() });
export type DroppedGrant = z.infer<typeof DroppedGrantSchema>;
