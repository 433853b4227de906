import { ListToolsResultSchema, ToolSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/**
 * tools/list with each tool left unchecked: the SDK's own result schema
 * refuses the whole list for one tool that breaks it (an `inputSchema`
 * without `"type": "object"`), and every good tool of the server went with
 * it. Each tool is checked apart instead (checkTools).
 */
export const ListedToolsSchema = ListToolsResultSchema.extend({ tools: z.array(z.unknown()) });

/** A tool the server listed that the host cannot offer: its name, the field that is wrong, and why. */
export interface RejectedTool {
  name: string;
  field: string;
  reason: string;
}

/** At most this much of a wrong value is quoted in the reason. */
const QUOTED_CHARS = 60;

/**
 * The tools of a listing that are tools as the MCP schema (the SDK's
 * ToolSchema) says, and the others, each with the first field that is
 * wrong (docs/rules/mcp-yaml.md#tools-the-host-cannot-offer). A tool with no
 * usable name is named by its place in the list.
 */
export function checkTools(listed: readonly unknown[]): { tools: Tool[]; rejected: RejectedTool[] } {
  const tools: Tool[] = [];
  const rejected: RejectedTool[] = [];
  listed.forEach((item, index) => {
    const parsed = ToolSchema.safeParse(item);
    if (parsed.success) return void tools.push(parsed.data);
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String);
    // zod's "Invalid input: expected …" says what the schema wants; the first words add nothing.
    const wanted = issue.message.replace(/^Invalid input: /, '');
    if (!path.length) return void rejected.push({ name: nameOf(item, index), field: 'entry', reason: `entry is ${quoted(item)}, not a tool (${wanted})` });
    const field = path.join('.');
    const value = valueAt(item, path);
    const said = value === undefined ? 'is missing' : `is ${quoted(value)}`;
    rejected.push({ name: nameOf(item, index), field, reason: `${field} ${said} (${wanted})` });
  });
  return { tools, rejected };
}

function nameOf(item: unknown, index: number): string {
  const name = (item as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.length > 0 ? name : `#${index + 1} (a tool without a name)`;
}

/** The value at `path` in what the server sent; own keys only (names from outside are data). */
function valueAt(item: unknown, path: readonly string[]): unknown {
  let current = item;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
}
