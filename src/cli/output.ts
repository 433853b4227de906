import { formatProblem, type Problem } from '../shared/problems.js';

/** Where a command writes: results to stdout, problems to stderr (DESIGN.md "CLI contract"). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/** What commands share: where to print, and the exit code their action sets. */
export interface CliContext {
  io: CliIo;
  exitCode: number;
}

export function printJson(io: CliIo, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

export function printProblems(io: CliIo, problems: readonly Problem[]): void {
  for (const problem of problems) io.err(formatProblem(problem));
}

/** A problem the user must fix: exit 1 with this message. */
export class UserError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}

/** Bad usage (wrong arguments): exit 2. */
export class UsageError extends Error {}
