import type { z } from 'zod';
import type { Problem } from '../../../shared/problems.js';
import { zodIssuesToProblems } from '../../problems/zodProblems.js';

/**
 * A top-level block of mcp.yaml checked apart from the servers (`leases:`,
 * `nodeRuntime:`): absent sets nothing; a broken block is an error on its
 * own path and sets nothing, and the servers load as usual.
 */
export function parseConfigBlock<T extends object>(
  schema: z.ZodType<T>,
  key: string,
  raw: unknown,
  document: unknown,
  file: string,
  code: string,
  hint: string,
): { settings: Partial<T>; problems: Problem[] } {
  if (raw === undefined || raw === null) return { settings: {}, problems: [] };
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { settings: parsed.data, problems: [] };
  const issues = parsed.error.issues.map((issue) => ({ ...issue, path: [key, ...issue.path] }));
  return { settings: {}, problems: zodIssuesToProblems(issues, document, file).map((p) => ({ ...p, code, hint })) };
}
