import initSqlJs, { type SqlJsStatic } from 'sql.js';

let ready: Promise<SqlJsStatic> | undefined;

/**
 * The sql.js module, initialised once per process: compiling the wasm costs
 * tens of milliseconds and every store would otherwise pay it again. A failed
 * init is not cached, so a later call can retry.
 */
export function loadSqlJs(): Promise<SqlJsStatic> {
  ready ??= initSqlJs().catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  return ready;
}
