import type { AuditLog } from '../audit/auditLog.js';

/** Every gateway call and every lease released, newest first (a file of its own: readable before the host starts). */
export type AuditFacade = Pick<AuditLog, 'query'>;
