import type { z } from 'zod';
import { formatJsonPath } from '../../shared/problemText.js';
import type { LogicalTable, StoredRecord } from './logicalTable.js';
import type { RecordRow } from './recordsDb.js';
import { messageOf } from './storeError.js';

export type Decoded<T> = { ok: true; record: StoredRecord<T> } | { ok: false; fieldPath: readonly PropertyKey[]; reason: string };

/** Parses a stored row and checks it against its table's schema, as every read does. */
export function decodeRow<T>(table: LogicalTable<T>, row: RecordRow): Decoded<T> {
  let value: unknown;
  try {
    value = JSON.parse(row.payload);
  } catch (error) {
    return { ok: false, fieldPath: [], reason: `its payload is not JSON (${messageOf(error)})` };
  }
  const parsed = table.schema.safeParse(value);
  if (!parsed.success) return { ok: false, fieldPath: parsed.error.issues[0]?.path ?? [], reason: describeIssues(parsed.error) };
  return { ok: true, record: { id: row.id, payload: parsed.data, createdAt: row.createdAt, updatedAt: row.updatedAt } };
}

/** `title: Invalid input: expected string, received number; tags[0]: …` — one line naming each failing field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${formatJsonPath(issue.path) || '(payload)'}: ${issue.message}`).join('; ');
}
