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

/** `['apps', 0, 'ai', 'mcp']` → `apps[0].ai.mcp` */
export function formatJsonPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$-]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}

/** One line for a terminal: `file:line:col path: message (hint)`. */
export function formatProblem(problem: Problem): string {
  const where = [problem.file, problem.line, problem.column].filter((v) => v !== undefined).join(':');
  const at = problem.path ? ` ${problem.path}` : '';
  const hint = problem.hint ? `\n    fix: ${problem.hint}` : '';
  return `${problem.severity}: ${where}${at}: ${problem.message} [${problem.code}]${hint}`;
}
