import { AUDIT_TEXT_MAX, AuditDecisionSchema, AuditFlowSchema, AuditOutcomeSchema, type AuditRecord } from '../../shared/audit.js';
import { PermissionLevelSchema } from '../../shared/mcp.js';

/**
 * A record whose time is still epoch milliseconds, and whose arguments and
 * result are still the call's own values: formatting a date, and turning
 * values into text, cost more than the rest of the record, so both happen
 * when the line is written (off the call's path), not when it is queued.
 */
export type AuditDraft = Omit<AuditRecord, 'time' | 'args' | 'result'> & { at: number; callArgs?: unknown; callResult?: { content?: readonly unknown[] } };

/** Text cut to the audit's bound. */
const bounded = (text: string) => (text.length > AUDIT_TEXT_MAX ? `${text.slice(0, AUDIT_TEXT_MAX - 1)}…` : text);

/** The arguments as JSON text; a value JSON cannot hold (a cycle, a BigInt) is named, never thrown. */
function argsText(args: unknown): string | undefined {
  if (args === undefined) return undefined;
  try {
    return bounded(JSON.stringify(args) ?? 'null');
  } catch {
    return '(arguments that are not JSON)';
  }
}

/** A result's text items, one per line; an image or other item by its type. */
function resultText(result: { content?: readonly unknown[] } | undefined): string | undefined {
  if (!result || !Array.isArray(result.content)) return undefined;
  const parts: string[] = [];
  let length = 0;
  for (const item of result.content as { type?: unknown; text?: unknown }[]) {
    const part = item?.type === 'text' && typeof item.text === 'string' ? item.text : `[${typeof item?.type === 'string' ? item.type : 'item'}]`;
    parts.push(part);
    length += part.length;
    if (length > AUDIT_TEXT_MAX) break;
  }
  return bounded(parts.join('\n'));
}

/** The largest |epoch ms| a Date holds; past it `toISOString` throws. */
const MAX_DATE_MS = 8.64e15;

// A burst of calls shares its milliseconds: format (and quote) each one once.
let lastTime = { at: Number.NaN, json: '' };
function timeJson(at: unknown): string {
  if (at === lastTime.at) return lastTime.json;
  if (typeof at !== 'number' || !(Math.abs(at) <= MAX_DATE_MS)) return 'null';
  lastTime = { at, json: JSON.stringify(new Date(at).toISOString()) };
  return lastTime.json;
}

/** Distinct ids, tool names and enum values kept; past this, values are quoted afresh each time. */
const QUOTED_CACHE_SIZE = 4096;
const quotedCache = new Map<string, string>();

/**
 * JSON of a string field, or `null` for anything that is not a string.
 * Every record repeats the same few (app, conversation, server, tool): each
 * is quoted once. JSON.stringify escapes quotes, control characters and lone
 * surrogates, so any string gives valid JSON.
 */
function quoted(value: unknown): string {
  if (typeof value !== 'string') return 'null';
  let json = quotedCache.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    if (quotedCache.size < QUOTED_CACHE_SIZE) quotedCache.set(value, json);
  }
  return json;
}

/** JSON of each member of an enum; any other value (undefined, a function from a bad lookup) is `null`. */
const enumJson = (values: readonly string[]) => new Map(values.map((value) => [value, JSON.stringify(value)]));
const FLOW_JSON = enumJson(AuditFlowSchema.options);
const PERMISSION_JSON = enumJson(PermissionLevelSchema.options);
const DECISION_JSON = enumJson(AuditDecisionSchema.options);
const OUTCOME_JSON = enumJson(AuditOutcomeSchema.options);
const member = (json: Map<string, string>, value: unknown) => (typeof value === 'string' && json.get(value)) || 'null';

/** The fields between a line's time and its duration: the same for a conversation's repeated calls of one tool. */
interface Middle {
  agentId: unknown;
  appId: unknown;
  flow: unknown;
  serverId: unknown;
  tool: unknown;
  permission: unknown;
  decision: unknown;
  json: string;
}

/** Conversations whose last middle part is kept; past this the cache starts over. */
const MIDDLE_CACHE_SIZE = 1024;
const middleCache = new Map<unknown, Middle>();

/** `,"agentId":…` through `,"decision":…`, built (and checked) once per conversation while its calls repeat it. */
function middleJson(record: AuditRecord | AuditDraft): string {
  const known = middleCache.get(record.conversationId);
  if (
    known &&
    known.agentId === record.agentId &&
    known.appId === record.appId &&
    known.flow === record.flow &&
    known.serverId === record.serverId &&
    known.tool === record.tool &&
    known.permission === record.permission &&
    known.decision === record.decision
  ) {
    return known.json;
  }
  let json = typeof record.agentId === 'string' ? `,"agentId":${quoted(record.agentId)}` : '';
  json += `,"conversationId":${quoted(record.conversationId)},"appId":${quoted(record.appId)},"flow":${member(FLOW_JSON, record.flow)}`;
  json += `,"serverId":${quoted(record.serverId)},"tool":${quoted(record.tool)},"permission":${member(PERMISSION_JSON, record.permission)},"decision":${member(DECISION_JSON, record.decision)}`;
  if (middleCache.size >= MIDDLE_CACHE_SIZE) middleCache.clear();
  const { agentId, appId, flow, serverId, tool, permission, decision } = record;
  middleCache.set(record.conversationId, { agentId, appId, flow, serverId, tool, permission, decision, json });
  return json;
}

/**
 * One audit line: exactly `JSON.stringify` of the record in AuditRecord's key
 * order (a draft's time formatted), plus a newline. Written by hand because
 * it runs once per tool call: stringifying a fresh object cost about 2 µs a
 * record with 50 calls in flight, this about a third of that; the middle of
 * the line, repeated by a conversation's calls, is built once.
 *
 * It cannot write an invalid line: every field is written through a check of
 * its type, and a value that fails it (undefined, a number where a string
 * belongs, a level that is no level) is written as `null`, or left out where
 * the field is optional (`agentId`, `pluginId`, `reason`, `count`, `error`, `args`, `result`), as AuditRecordSchema reads it.
 */
export function auditLine(record: AuditRecord | AuditDraft): string {
  const time = 'at' in record ? timeJson(record.at) : quoted(record.time);
  const pluginId = typeof record.pluginId === 'string' ? `,"pluginId":${quoted(record.pluginId)}` : '';
  const reason = typeof record.reason === 'string' ? `,"reason":${quoted(record.reason)}` : '';
  const count = Number.isSafeInteger(record.count) && record.count! > 0 ? `,"count":${record.count}` : '';
  const error = typeof record.error === 'string' ? `,"error":${JSON.stringify(record.error)}` : '';
  const duration = typeof record.durationMs === 'number' && Number.isFinite(record.durationMs) ? JSON.stringify(record.durationMs) : 'null';
  const args = 'at' in record ? argsText(record.callArgs) : typeof record.args === 'string' ? record.args : undefined;
  const result = 'at' in record ? resultText(record.callResult) : typeof record.result === 'string' ? record.result : undefined;
  const call = `${args === undefined ? '' : `,"args":${JSON.stringify(args)}`}${result === undefined ? '' : `,"result":${JSON.stringify(result)}`}`;
  return `{"time":${time}${middleJson(record)},"durationMs":${duration},"outcome":${member(OUTCOME_JSON, record.outcome)}${pluginId}${reason}${count}${error}${call}}\n`;
}
