import { z } from 'zod';

/** At most this many workspace roots per agent or conversation, each path at most this long. */
export const MAX_WORKSPACE_ROOTS = 32;
const MAX_ROOT_PATH = 4096;

/** An absolute path on POSIX (`/…`) or Windows (`C:\…`, `\\server\share`); checked without node:path, so the renderer can use it too. */
const isAbsolutePath = (value: string) => value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value) || value.startsWith('\\\\');

/**
 * Workspace roots (docs/using/agents.md#workspace-roots): the folders an MCP
 * server is told it may work in (`roots/list`). Absolute paths, no
 * duplicates; that each is a folder that exists is checked by the host when
 * they are saved (a schema cannot look at the disk).
 */
export const WorkspaceRootsSchema = z
  .array(
    z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(MAX_ROOT_PATH, { error: `must be at most ${MAX_ROOT_PATH} characters` })
      .refine((value) => !value.includes('\0'), { error: 'must not contain a NUL character' })
      .refine(isAbsolutePath, { error: 'must be an absolute folder path (starting with / or a drive letter such as C:\\)' }),
  )
  .max(MAX_WORKSPACE_ROOTS, { error: `at most ${MAX_WORKSPACE_ROOTS} folders` })
  .superRefine((paths, ctx) => {
    const seen = new Set<string>();
    paths.forEach((value, index) => {
      const key = value.replace(/[\\/]+$/, '') || value;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [index], message: `${value} is listed twice; list each folder once` });
      seen.add(key);
    });
  });

/** One root as a server is told it (`roots/list`): a `file://` URI and a name. */
export interface WorkspaceRoot {
  uri: string;
  name: string;
}
