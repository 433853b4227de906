// The canvas's history file: one JSON line per patch_ui_state call (applied
// or refused), appended by the store under its lock and read by the store,
// the plugin's backend and tests. Readers skip a line that does not parse (a
// write torn by a crash, a hand edit), so one bad line never hides the rest.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';

export const INSTANCES_FILE = 'canvas-instances.json';
export const HISTORY_FILE = 'canvas-history.jsonl';

/** Who sent a call: ChatOS tells its built-in plugins (`_meta.chatos.caller`); elsewhere the MCP client's name. */
export const CallerSchema = z.object({
  kind: z.enum(['agent', 'page', 'app', 'client']),
  agentId: z.string().optional(),
  appId: z.string().optional(),
  conversationId: z.string().optional(),
  flow: z.enum(['main', 'sub']).optional(),
  name: z.string().optional(),
});

export const HistoryEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  instance_id: z.string(),
  kind: z.enum(['patch', 'create', 'delete']),
  caller: CallerSchema,
  /** The patches as sent; a call too large to keep whole is summarised as { truncated, count, ops }. */
  patches: z.union([z.array(z.unknown()), z.object({ truncated: z.literal(true), count: z.number(), ops: z.array(z.string()) })]),
  result: z.union([
    z.object({ status: z.literal('success'), revision: z.number(), applied: z.number() }),
    z.object({ status: z.literal('error'), code: z.string(), message: z.string(), patch_index: z.number().optional() }),
  ]),
});

/** The history of a data folder, newest first, optionally of one instance. */
export function readHistory(dir, { instanceId, limit = 100 } = {}) {
  let text;
  try {
    text = fs.readFileSync(path.join(dir, HISTORY_FILE), 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  const entries = [];
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0 && entries.length < limit; i--) {
    if (!lines[i]) continue;
    let parsed;
    try {
      parsed = HistoryEntrySchema.safeParse(JSON.parse(lines[i]));
    } catch {
      continue;
    }
    if (parsed.success && (instanceId === undefined || parsed.data.instance_id === instanceId)) entries.push(parsed.data);
  }
  return entries;
}

/** A cheap fingerprint of the folder's files: it changes whenever a call is recorded or an instance changes, in any process. */
export function stampOf(dir) {
  const part = (file) => {
    const stat = fs.statSync(path.join(dir, file), { throwIfNoEntry: false });
    return stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}` : '-';
  };
  return `${part(INSTANCES_FILE)}|${part(HISTORY_FILE)}`;
}
