import type { AuditRecord } from '../../shared/audit.js';

/** A record whose time is still epoch milliseconds: formatting a date costs more than the rest of the record. */
export type AuditDraft = Omit<AuditRecord, 'time'> & { at: number };

// A burst of calls shares its milliseconds: format (and quote) each one once.
let lastTime = { at: Number.NaN, json: '' };
function timeJson(at: number): string {
  if (at !== lastTime.at) lastTime = { at, json: JSON.stringify(new Date(at).toISOString()) };
  return lastTime.json;
}

/** Distinct ids, tool names and enum values kept; past this, values are quoted afresh each time. */
const QUOTED_CACHE_SIZE = 4096;
const quotedCache = new Map<string, string>();

/** JSON of a string. Every record repeats the same few (app, conversation, server, tool, enums): each is quoted once. */
function quoted(value: string): string {
  let json = quotedCache.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    if (quotedCache.size < QUOTED_CACHE_SIZE) quotedCache.set(value, json);
  }
  return json;
}

/** The fields between a line's time and its duration: the same for a conversation's repeated calls of one tool. */
interface Middle {
  agentId: string | undefined;
  appId: string;
  flow: string;
  serverId: string;
  tool: string;
  permission: string;
  decision: string;
  json: string;
}

/** Conversations whose last middle part is kept; past this the cache starts over. */
const MIDDLE_CACHE_SIZE = 1024;
const middleCache = new Map<string, Middle>();

/** `,"agentId":…` through `,"decision":…`, built once per conversation while its calls repeat it. */
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
  let json = record.agentId !== undefined ? `,"agentId":${quoted(record.agentId)}` : '';
  json += `,"conversationId":${quoted(record.conversationId)},"appId":${quoted(record.appId)},"flow":${quoted(record.flow)}`;
  json += `,"serverId":${quoted(record.serverId)},"tool":${quoted(record.tool)},"permission":${quoted(record.permission)},"decision":${quoted(record.decision)}`;
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
 */
export function auditLine(record: AuditRecord | AuditDraft): string {
  const time = 'at' in record ? timeJson(record.at) : JSON.stringify(record.time);
  const error = record.error !== undefined ? `,"error":${JSON.stringify(record.error)}` : '';
  return `{"time":${time}${middleJson(record)},"durationMs":${JSON.stringify(record.durationMs)},"outcome":${quoted(record.outcome)}${error}}\n`;
}
