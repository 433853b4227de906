/** Tool arguments typed by hand: must be one JSON object (`{…}`), as MCP `tools/call` takes. */
export function parseArgsJson(text: string): { ok: true; args: Record<string, unknown> } | { ok: false; reason: 'syntax' | 'notObject'; message?: string } {
  if (text.trim() === '') return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: 'syntax', message: error instanceof Error ? error.message : String(error) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: 'notObject' };
  return { ok: true, args: value as Record<string, unknown> };
}
