import { z } from 'zod';
import type { Problem } from '../../../shared/problems.js';
import { parseConfigBlock } from '../../problems/configBlock.js';

/**
 * `builtins:` in mcp.yaml: which of the host's built-in tools are switched
 * on (docs/using/mcp-servers.md#built-in-tools). It lives beside the user's
 * servers because it is the same kind of choice (which servers agents may
 * be offered), so every process of this data home (the window, `chatos
 * serve`, the CLI) reads one answer, and the file's hot reload applies it.
 * Absent, every built-in tool is off: nothing is offered by default.
 */
const Switch = z.object({ enabled: z.boolean().default(false) }).strict();

export const BuiltinSettingsSchema = z
  .object({
    time: Switch.optional(),
    calculator: Switch.optional(),
    fetch: z
      .object({
        enabled: z.boolean().default(false),
        /** Private, loopback and link-local addresses are refused unless this is true. */
        allowPrivateAddresses: z.boolean().default(false),
      })
      .strict()
      .optional(),
  })
  .strict();
export type BuiltinSettings = z.infer<typeof BuiltinSettingsSchema>;

const HINT = 'write e.g. "builtins: { time: { enabled: true }, calculator: { enabled: true }, fetch: { enabled: true, allowPrivateAddresses: false } }"';

/** The block as written (absent: all off); a broken block is an error on its path and switches nothing on. */
export function parseBuiltinSettings(raw: unknown, document: unknown, file: string): { settings: BuiltinSettings; problems: Problem[] } {
  return parseConfigBlock(BuiltinSettingsSchema, 'builtins', raw, document, file, 'MCP_BUILTINS_INVALID', HINT);
}
