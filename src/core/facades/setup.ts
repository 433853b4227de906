import type { DataHome } from '../dataHome.js';
import type { Clock, Logger } from '../ports.js';

/** Where a host lives and what it runs on: its data home, the installed app, its clock and its log. */
export interface HostSetup {
  readonly home: DataHome;
  /** The installed application's root; `plugins/` and `defaults/` are read from here, never written. */
  readonly appRoot: string;
  readonly defaultsDir: string;
  readonly clock: Clock;
  readonly logger: Logger;
}

// What a face needs before a host exists, or beside it: the app, the data home and its first start, the PATH
// servers get, the checks of `chatos doctor`.
export { findAppRoot } from '../appPaths.js';
export { DataHome, resolveDataHome } from '../dataHome.js';
export { silentLogger, type Clock, type Logger } from '../ports.js';
export { adoptLoginShellPath, serverPathSource } from '../runtime/loginShellPath.js';
export { ensureDataHome } from '../runtime/firstStart.js';
export { runDiagnostics } from '../diagnostics/diagnostics.js';
