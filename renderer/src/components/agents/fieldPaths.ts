/** A form field's name path, as antd Form takes it. */
export type FieldPath = (string | number)[];

/**
 * `uiApps[0].mcpServerIds[1]` (the host's `fieldsOf` format) or
 * `uiApps.0.mcpServerIds.1` (the agent store's, in a save's field errors)
 * → `['uiApps', 0, 'mcpServerIds', 1]`. Agent fields are never named by digits.
 */
export function parseFieldPath(path: string): FieldPath {
  const out: FieldPath = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (match[2] !== undefined) out.push(Number(match[2]));
    else if (match[1] !== undefined) out.push(/^\d+$/.test(match[1]) ? Number(match[1]) : match[1]);
  }
  return out;
}

const TOP_FIELDS = new Set(['id', 'name', 'description', 'hostAppId', 'language']);
const APP_FIELDS = new Set(['mcp', 'prompt', 'mcpServerIds', 'promptIds']);

/**
 * The editor field an error path belongs to, or undefined when the editor
 * has no input for it (then the error is listed above the form). An error
 * on one id of a list (`…mcpServerIds[1]`) goes to the list's select.
 */
export function formFieldOf(path: string): FieldPath | undefined {
  const parts = parseFieldPath(path);
  const [head, index, field] = parts;
  if (parts.length === 1 && typeof head === 'string' && TOP_FIELDS.has(head)) return [head];
  // A bad folder (`roots.1`) goes to the one box of folders; its message names the folder.
  if (head === 'roots' && parts.length <= 2) return ['roots'];
  if (head === 'uiApps' && typeof index === 'number' && typeof field === 'string' && APP_FIELDS.has(field)) return ['uiApps', index, field];
  return undefined;
}
