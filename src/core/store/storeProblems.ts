import type { Problem } from '../../shared/problems.js';
import { formatJsonPath } from '../../shared/problemText.js';
import { RECORDS_SCHEMA_VERSION } from './recordsSchema.js';

/**
 * Every problem the store reports, in one place so the codes stay stable:
 * callers (the CLI, the UI, tests) branch on `code`.
 */
export type StoreProblemCode =
  'DB_CORRUPT_RESTORED' | 'DB_CORRUPT_RESET' | 'DB_CORRUPT_READ_ONLY' | 'DB_CORRUPT_REPLACED' | 'DB_CHANGE_UNREADABLE' | 'DB_TOO_NEW' | 'DB_BACKUP_FAILED' | 'DB_SAVE_FAILED' | 'RECORD_INVALID';

function problem(code: StoreProblemCode, file: string, message: string, hint: string, severity: Problem['severity'] = 'error', path = ''): Problem {
  return { severity, code, file, path, message, hint };
}

export function corruptRestored(file: string, reason: string, movedTo: string, backup: string): Problem {
  return problem(
    'DB_CORRUPT_RESTORED',
    file,
    `${file} could not be read (${reason}). It was moved to ${movedTo} and the newest good backup, ${backup}, took its place.`,
    `Changes made after that backup are lost; the damaged file is kept at ${movedTo} in case they must be recovered.`,
  );
}

export function corruptReset(file: string, reason: string, movedTo: string): Problem {
  return problem(
    'DB_CORRUPT_RESET',
    file,
    `${file} could not be read (${reason}). It was moved to ${movedTo}; no good backup was found, so a new empty DB was started.`,
    `The damaged file is kept at ${movedTo} in case its data must be recovered.`,
  );
}

export function corruptReadOnly(file: string, reason: string, backup: string | undefined): Problem {
  const instead = backup ? `its backup ${backup} is read instead` : 'no good backup was found, so nothing is read from it';
  return problem(
    'DB_CORRUPT_READ_ONLY',
    file,
    `${file} could not be read (${reason}). It was left as it is (read-only here); ${instead}.`,
    'Start the app that owns this DB so it can repair it from its backups.',
  );
}

export function corruptReplaced(file: string, reason: string, movedTo: string): Problem {
  return problem(
    'DB_CORRUPT_REPLACED',
    file,
    `${file} was replaced by another process with a file that cannot be read (${reason}). It was moved to ${movedTo} and this process's copy was written in its place.`,
    `Changes the other process made may be lost; the damaged file is kept at ${movedTo}.`,
  );
}

export function changeUnreadable(file: string, reason: string, readOnly: boolean): Problem {
  return problem(
    'DB_CHANGE_UNREADABLE',
    file,
    `${file} was changed by another process but cannot be read (${reason}); this store keeps the data it had.`,
    readOnly ? 'Start the app that owns this DB so it can repair it.' : 'It is moved aside and rewritten at the next save.',
  );
}

export function tooNew(file: string, schemaVersion: number): Problem {
  return problem(
    'DB_TOO_NEW',
    file,
    `${file} was written by a newer ChatOS (schema version ${schemaVersion}; this one knows up to ${RECORDS_SCHEMA_VERSION}), so it is not changed or moved.`,
    'Update ChatOS.',
  );
}

export function backupFailed(file: string, reason: string): Problem {
  return problem('DB_BACKUP_FAILED', file, `could not back up ${file}: ${reason}`, 'Free some disk space or fix the folder permissions.', 'warning');
}

export function saveFailed(file: string, reason: string, pending: number): Problem {
  return problem(
    'DB_SAVE_FAILED',
    file,
    `${pending} change(s) could not be saved to ${file}: ${reason}`,
    'Free some disk space or make the data home writable; saving is retried, and nothing shown as changed is on disk until it succeeds.',
  );
}

export function recordInvalid(file: string, table: string, id: string, fieldPath: readonly PropertyKey[], reason: string): Problem {
  return problem('RECORD_INVALID', file, `row ${table}/${id} is skipped: ${reason}`, 'Put a valid payload under the same id, or delete the row.', 'error', formatJsonPath([table, id, ...fieldPath]));
}
