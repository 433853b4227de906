import type { ServerDefinition, Transform } from '../../../shared/mcp.js';
import { deriveToolName } from '../../naming/names.js';

/**
 * The name a model sees for an MCP tool. By default
 * `mcp_<normalize(server)>_<tool>` (docs/rules/names-and-exposure.md#derived-names); a server with a
 * `transform` list uses it instead (docs/rules/mcp-yaml.md#tool-names-and-transforms). Names are never repaired:
 * only an explicit transform changes a name, so a tool whose raw or final
 * name breaks the rule is rejected and the user told why.
 */

/** The intersection of OpenAI's and Anthropic's function name rules (docs/rules/mcp-yaml.md#tool-names-and-transforms). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const MAX_TOOL_NAME_LENGTH = 64;

export type ToolNaming = { ok: true; name: string } | { ok: false; reason: string };

export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/** What is wrong with a name, or undefined if nothing is. */
export function toolNameFault(name: string): string | undefined {
  if (isValidToolName(name)) return undefined;
  const faults: string[] = [];
  if (name.length === 0) faults.push('is empty');
  if (name.length > MAX_TOOL_NAME_LENGTH) faults.push(`is ${name.length} characters long (at most ${MAX_TOOL_NAME_LENGTH})`);
  const bad = [...new Set(name.replace(/[a-zA-Z0-9_-]/g, ''))];
  if (bad.length) faults.push(`contains ${bad.map((c) => JSON.stringify(c)).join(', ')} (only ASCII letters, digits, "_" and "-" are allowed)`);
  return faults.join(' and ');
}

/** The transforms, in order: prefix prepends; prefix {remove, add} strips a leading `remove` if present, then prepends `add`; suffix appends. */
export function applyTransforms(rawName: string, transforms: readonly Transform[]): string {
  let name = rawName;
  for (const transform of transforms) {
    if ('suffix' in transform) name = `${name}${transform.suffix}`;
    else if (typeof transform.prefix === 'string') name = `${transform.prefix}${name}`;
    else {
      const { remove, add } = transform.prefix;
      name = `${add}${remove && name.startsWith(remove) ? name.slice(remove.length) : name}`;
    }
  }
  return name;
}

export function toolNameFor(server: Pick<ServerDefinition, 'name' | 'transform'>, rawName: string): ToolNaming {
  const rawFault = toolNameFault(rawName);
  if (rawFault) return { ok: false, reason: `the server's tool name ${JSON.stringify(rawName)} ${rawFault}; ChatOS does not rename tools implicitly` };
  const transformed = server.transform.length > 0;
  const name = transformed ? applyTransforms(rawName, server.transform) : deriveToolName(server.name, rawName);
  const finalFault = toolNameFault(name);
  if (finalFault) {
    const how = transformed ? "after the server's transform" : `by default (mcp_<server>_<tool>)`;
    return { ok: false, reason: `the name ${JSON.stringify(name)} it gets ${how} ${finalFault}` };
  }
  return { ok: true, name };
}

/**
 * Whether some raw tool name could come out of `transforms` as `name`, worked
 * backwards: each prefix or suffix the chain adds must be there. A
 * `{ remove, add }` prefix leaves two possible names before it (the raw one
 * had `remove`, or did not), so both are followed. Used to tell which server
 * a called name can belong to without starting any.
 */
export function mayProduceName(name: string, transforms: readonly Transform[]): boolean {
  let names = [name];
  for (let i = transforms.length - 1; i >= 0 && names.length > 0; i--) {
    const transform = transforms[i]!;
    const before: string[] = [];
    for (const current of names) {
      if ('suffix' in transform) {
        if (current.endsWith(transform.suffix)) before.push(current.slice(0, current.length - transform.suffix.length));
      } else if (typeof transform.prefix === 'string') {
        if (current.startsWith(transform.prefix)) before.push(current.slice(transform.prefix.length));
      } else if (current.startsWith(transform.prefix.add)) {
        const { remove } = transform.prefix;
        const rest = current.slice(transform.prefix.add.length);
        // A raw name that began with `remove` lost it, so `rest` itself came through unchanged only if it does not.
        if (!remove || !rest.startsWith(remove)) before.push(rest);
        if (remove) before.push(`${remove}${rest}`);
      }
    }
    names = [...new Set(before)];
  }
  return names.some((raw) => raw.length > 0);
}
