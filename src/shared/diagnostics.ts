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
});
export type DiagnosticCheck = z.infer<typeof DiagnosticCheckSchema>;

export const DiagnosticsReportSchema = z.object({
  checks: z.array(DiagnosticCheckSchema),
  /** No check failed. */
  ok: z.boolean(),
});
export type DiagnosticsReport = z.infer<typeof DiagnosticsReportSchema>;
