import { z } from 'zod';

/**
 * The built-in tools (docs/using/mcp-servers.md#built-in-tools): MCP servers
 * that run inside ChatOS itself, so they need no runtime on the machine
 * (no node, npx or uvx). Each is off until the user switches it on in the
 * MCP servers page's Built-in tab, `chatos mcp builtin on NAME` or the API;
 * on, it is registered as `chatos::<name>` and offered like the user's own
 * servers.
 */

export const BUILTIN_TOOL_NAMES = ['time', 'fetch', 'calculator'] as const;
export const BuiltinToolNameSchema = z.enum(BUILTIN_TOOL_NAMES, { error: `must be one of ${BUILTIN_TOOL_NAMES.join(', ')}` });
export type BuiltinToolName = z.infer<typeof BuiltinToolNameSchema>;

const Words = z.object({ zh: z.string(), en: z.string() });

/** What a user may change of a built-in tool; a field left out stays as it is. */
export const BuiltinToolChangeSchema = z
  .object({
    enabled: z.boolean().optional(),
    /** fetch only: private, loopback and link-local addresses are fetched too. */
    allowPrivateAddresses: z.boolean().optional(),
  })
  .strict();
export type BuiltinToolChange = z.infer<typeof BuiltinToolChangeSchema>;

export const BuiltinToolViewSchema = z.object({
  name: BuiltinToolNameSchema,
  /** Its registry id when on: `chatos::<name>`. */
  serverId: z.string(),
  title: Words,
  description: Words,
  /** Its tools' names as the server lists them (the gateway offers them as `mcp_<name>_<tool>`). */
  tools: z.array(z.string()),
  enabled: z.boolean(),
  /** fetch only. */
  allowPrivateAddresses: z.boolean().optional(),
  /** Why it is not served though switched on (a server of the same name in mcp.yaml takes the name). */
  blockedBy: z.string().optional(),
});
export type BuiltinToolView = z.infer<typeof BuiltinToolViewSchema>;
