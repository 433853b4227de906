import type { Problem } from './problems.js';

// Problems as text, apart from their schema: the CLI prints them without loading zod.

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
