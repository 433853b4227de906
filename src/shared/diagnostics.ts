import { z } from 'zod';

/**
 * `chatos doctor` and the Diagnostics page: what this machine gives ChatOS,
 * each check with its state and, when not ok, the fix. Any `fail` makes
 * `chatos doctor` exit 1.
 */
export const CheckStatusSchema = z.enum(['ok', 'warn', 'fail']);
export type CheckStatus = z.infer<typeof CheckStatusSchema>;

export const DiagnosticCheckSchema = z.object({
  /** Stable: `app`, `electron`, `data-home`, `disk`, `path`, `server:<id>`, `headless-port`, `ui`. */
  id: z.string(),
  status: CheckStatusSchema,
  /** One line: what was found. */
  summary: z.string(),
  /** How to fix it (warn and fail). */
  fix: z.string().optional(),
  /** Facts behind it, for people and scripts: versions, paths, sizes. */
  facts: z.record(z.string(), z.string()).default({}),
  /**
   * What `summary` and `fix` say, as keys the window says in the user's
   * language (`diagnostics.said.<key>`, `diagnostics.fixSaid.<key>`) with
   * their values; absent where the text comes from elsewhere (a server's
   * start trouble), which is then shown as written.
   */
  words: z.object({ summary: z.string(), fix: z.string().optional(), params: z.record(z.string(), z.string()).default({}) }).optional(),
});
export type DiagnosticCheck = z.infer<typeof DiagnosticCheckSchema>;

export const DiagnosticsReportSchema = z.object({
  checks: z.array(DiagnosticCheckSchema),
  /** No check failed. */
  ok: z.boolean(),
});
export type DiagnosticsReport = z.infer<typeof DiagnosticsReportSchema>;
