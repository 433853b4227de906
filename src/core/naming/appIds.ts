/**
 * Which app ids a plugin may use. The original ChatOS accepted any app id
 * (a trimmed, non-empty string), and `normalize()` (docs/rules/names-and-exposure.md#derived-names) maps every
 * character outside `[a-z0-9_-]` to `_` where a name is derived from it, so
 * `Report.Viewer` is a fine app id: its server is `<pluginId>.Report.Viewer`
 * and its tools `mcp_<plugin>_report_viewer_<tool>`.
 *
 * Refused is only what cannot be a folder or file name on every system, or
 * a path segment that could lead elsewhere: an empty id, spaces at either
 * end, control characters, `/ \ : * ? " < > |`, `..`, and a trailing `.`.
 * Nothing splits `${pluginId}.${appId}` back into its parts (the host keeps
 * both ids); two apps whose derived names normalize alike are refused by
 * the scanner's collision check.
 */

export const MAX_APP_ID_LENGTH = 64;

/** Windows refuses these in a file name; `/` and `\` are path separators everywhere. */
const FORBIDDEN = /[/\\:*?"<>|]/g;
// C0 and C1 controls, DEL: invisible, and a line break would forge lines in logs and audit.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export interface AppIdFault {
  message: string;
  hint: string;
}

/** A safe id close to `id`, for the hint: forbidden and control characters become `_`, ends trimmed. */
export function suggestAppId(id: string): string {
  const fixed = id
    .replace(CONTROL, '_')
    .replace(FORBIDDEN, '_')
    .replace(/\.{2,}/g, '.')
    .trim()
    .replace(/\.+$/, '')
    .slice(0, MAX_APP_ID_LENGTH);
  return fixed || 'main';
}

/** What is wrong with an app id, or undefined when a plugin may use it. */
export function appIdFault(id: string): AppIdFault | undefined {
  const hint = (why: string) => `${why}, e.g. "${suggestAppId(id)}"`;
  if (id.length === 0 || id.trim().length === 0) return { message: 'must not be empty', hint: 'give the app an id, e.g. "main" or "Report.Viewer"' };
  if (id.length > MAX_APP_ID_LENGTH)
    return { message: `is ${id.length} characters long (at most ${MAX_APP_ID_LENGTH})`, hint: `shorten it: tool names derive from it and may have at most 64 characters` };
  if (id !== id.trim()) return { message: 'must not start or end with a space', hint: hint('remove the spaces') };
  const control = id.match(CONTROL);
  if (control)
    return {
      message: `must not contain control characters (found ${[...new Set(control)].map((c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(', ')})`,
      hint: hint('remove them'),
    };
  const forbidden = id.match(FORBIDDEN);
  if (forbidden) {
    return {
      message: `must not contain ${[...new Set(forbidden)].map((c) => JSON.stringify(c)).join(', ')}: an app id must be usable as a folder name on every system`,
      hint: hint('use letters, digits, ".", "_" or "-" instead'),
    };
  }
  if (id.includes('..')) return { message: 'must not contain "..", which names a parent folder in a path', hint: hint('use a single "." or "_"') };
  if (id.endsWith('.')) return { message: 'must not end with ".", which Windows drops from folder names', hint: hint('remove the trailing "."') };
  return undefined;
}
