import { z } from 'zod';
import { NodeRuntimeChoiceSchema } from './mcp.js';
import { ownRecord } from './ownKeys.js';
import { ProblemSchema } from './problems.js';

export const TrustChangesSchema = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  modified: z.array(z.string()),
});
export type TrustChanges = z.infer<typeof TrustChangesSchema>;

/**
 * Whether a plugin may run: built-ins always; others only while their content
 * matches what the user trusted. `blocked`: its folder cannot be pinned (a
 * link leaving it, too many files…): it can be neither trusted nor run until
 * the problems are fixed, built-ins included.
 */
export const TrustStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('builtin') }),
  z.object({ state: z.literal('blocked'), problems: z.array(ProblemSchema) }),
  z.object({ state: z.literal('trusted'), trustedAt: z.string(), fingerprint: z.string() }),
  z.object({ state: z.literal('untrusted'), fingerprint: z.string().optional() }),
  z.object({ state: z.literal('changed'), trustedAt: z.string(), fingerprint: z.string(), changes: TrustChangesSchema }),
]);
export type TrustState = z.infer<typeof TrustStateSchema>;

/**
 * The environment a process gets: the variables the plugin sets (`ai.mcp.env`,
 * as written) and the names of the few host variables passed on (their values
 * are the user's own and not shown).
 */
export const RunEnvSchema = z.object({
  set: z.array(z.object({ name: z.string(), value: z.string() })),
  inherited: z.array(z.string()),
});
export type RunEnv = z.infer<typeof RunEnvSchema>;

/** Something in a run plan that makes code from outside the plugin folder run (shown before trusting, CLI and UI). */
export const RunWarningSchema = z.object({
  code: z.enum(['ENV_CHANGES_CODE', 'COMMAND_OUTSIDE_PLUGIN', 'ARG_OUTSIDE_PLUGIN']),
  /** `server <serverName>` or `backend`. */
  subject: z.string(),
  /** The variable, for ENV_CHANGES_CODE. */
  variable: z.string().optional(),
  message: z.string(),
});
export type RunWarning = z.infer<typeof RunWarningSchema>;

/**
 * Exactly what a plugin runs once trusted: server command lines and their
 * environments, page entries, its backend and its environment, and what in
 * them runs code from outside the folder. Derived from plugin.json, which
 * the fingerprint pins, so the plan cannot change while the trust holds.
 * (Trust records from before env and warnings were shown lack them.)
 */
export const RunPlanSchema = z.object({
  servers: z.array(
    z.object({
      appId: z.string(),
      serverName: z.string(),
      command: z.array(z.string()).optional(),
      url: z.string(),
      env: RunEnvSchema.optional(),
      /** A bare `node` command: which Node runs it by default (auto: PATH's, else the app's own); mcp.yaml's `nodeRuntime:` may choose otherwise. */
      nodeRuntime: NodeRuntimeChoiceSchema.optional(),
    }),
  ),
  pages: z.array(z.object({ appId: z.string(), entry: z.string(), compact: z.string().optional() })),
  backend: z.string().optional(),
  backendEnv: RunEnvSchema.optional(),
  /** Node's own options the backend process is started with (the host-modules hook). */
  backendNodeArgs: z.array(z.string()).optional(),
  /** The host's packages a Node server or backend may import without bundling them, with their versions. */
  hostModules: z.array(z.object({ name: z.string(), version: z.string() })).optional(),
  warnings: z.array(RunWarningSchema).default([]),
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
  /**
   * Trusted as a development link (`chatos dev DIR`): while the folder stays
   * linked at `dir`, an edit is re-pinned (and reported) instead of making
   * the plugin untrusted. Unlinking takes the trust back.
   */
  devLink: z.boolean().optional(),
});
export type TrustRecord = z.infer<typeof TrustRecordSchema>;
