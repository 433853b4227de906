import type { AuditRecord } from '../../../../src/shared/audit';
import '../../i18n/load/history';

/** Tag colours of how a call ended, so a declined call does not look like a failure. */
export const OUTCOME_COLOR: Record<NonNullable<AuditRecord['outcome']>, string> = {
  ok: 'success',
  'tool-error': 'error',
  failed: 'error',
  declined: 'warning',
  refused: 'default',
  released: 'default',
  cancelled: 'default',
};

/** The i18n key that says how a call ended in words (a declined one by whether the user or the clock declined it). */
export function outcomeKey(record: Pick<AuditRecord, 'outcome' | 'decision'>): string {
  if (record.outcome === 'declined') return record.decision === 'expired' ? 'history.outcome.expired' : 'history.outcome.declined';
  if (record.outcome === 'cancelled' && record.decision === 'withdrawn') return 'history.outcome.withdrawn';
  return `history.outcome.${record.outcome ?? 'unknown'}`;
}

/** A stable key for a record in a list: the log has no ids, and a time alone can repeat. */
export const recordKey = (record: AuditRecord, index: number) => `${record.time ?? ''}|${record.conversationId ?? ''}|${record.tool ?? ''}|${index}`;
