import { z } from 'zod';

/**
 * A problem is anything the user should read: a broken manifest field, a
 * plugin that was overridden, a config that failed. Every layer reports
 * problems in this one shape so the CLI, the UI and tests read them alike.
 */
export const ProblemSeveritySchema = z.enum(['error', 'warning', 'notice']);
export type ProblemSeverity = z.infer<typeof ProblemSeveritySchema>;

export const ProblemSchema = z.object({
  severity: ProblemSeveritySchema,
  /** Stable machine-readable code; callers branch on it, never on message text. */
  code: z.string(),
  /** Absolute path of the file the problem is about. */
  file: z.string(),
  /** JSON path inside the file, e.g. `apps[0].ai.mcp.entry`; empty for the whole file. */
  path: z.string().default(''),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  message: z.string(),
  /** How to fix it, phrased as an instruction. */
  hint: z.string().optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;
