import { z } from 'zod';
import { ownRecord } from './ownKeys.js';

export const TrustChangesSchema = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  modified: z.array(z.string()),
});
export type TrustChanges = z.infer<typeof TrustChangesSchema>;

/** Whether a plugin may run: built-ins always; others only while their content matches what the user trusted. */
export const TrustStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('builtin') }),
  z.object({ state: z.literal('trusted'), trustedAt: z.string(), fingerprint: z.string() }),
  z.object({ state: z.literal('untrusted'), fingerprint: z.string().optional() }),
  z.object({ state: z.literal('changed'), trustedAt: z.string(), fingerprint: z.string(), changes: TrustChangesSchema }),
]);
export type TrustState = z.infer<typeof TrustStateSchema>;

/** Exactly what a plugin runs once trusted: server command lines, page entries, its backend. */
export const RunPlanSchema = z.object({
  servers: z.array(z.object({ appId: z.string(), serverName: z.string(), command: z.array(z.string()).optional(), url: z.string() })),
  pages: z.array(z.object({ appId: z.string(), entry: z.string(), compact: z.string().optional() })),
  backend: z.string().optional(),
});
export type RunPlan = z.infer<typeof RunPlanSchema>;

export const TrustRecordSchema = z.object({
  pluginId: z.string(),
  dir: z.string(),
  fingerprint: z.string(),
  /** Per-file content hashes, so a later change can be reported file by file (every name kept, `__proto__` too). */
  files: ownRecord(z.string()),
  trustedAt: z.string(),
  runPlan: RunPlanSchema,
});
export type TrustRecord = z.infer<typeof TrustRecordSchema>;
