import { messageOf, type StoreError } from '../core/facades/errors.js';
import { UserError } from './output.js';

/**
 * A store failure as the CLI reports it: the change is not saved, and the
 * process ends, so nothing waits in memory (the store's own message says it
 * does, which is true for the long-running app, not for a command).
 */
export function notSaved(error: StoreError): UserError {
  switch (error.code) {
    case 'DB_WRITE_FAILED':
    case 'DB_LOCK_FAILED':
      return new UserError(
        `could not save to ${error.file}: ${messageOf(error.cause ?? error)}; the change was not saved`,
        'make the data home writable and free some disk space (or use another with --home DIR), then run the command again',
      );
    case 'DB_TOO_NEW':
      return new UserError(error.message, 'update ChatOS');
    case 'DB_READ_FAILED':
      return new UserError(error.message, 'check the permissions of the data home (or use another with --home DIR)');
    default:
      return new UserError(error.message);
  }
}
