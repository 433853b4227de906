import * as fs from 'node:fs';
import type { DataHome } from '../dataHome.js';

/**
 * The desktop app's first start on a machine: the data home is made before
 * anything is read from it, so the window opens on a home that exists (and
 * the Diagnostics page can say it is writable) even before the first save.
 * Only the user may list it: it holds the key store and conversations.
 * Built-in plugins need nothing here: they run as built-ins, untrusted by
 * no one (the run gate), from the installed app.
 */
export function ensureDataHome(home: DataHome): { created: boolean } {
  const created = !fs.existsSync(home.hostDir);
  fs.mkdirSync(home.hostDir, { recursive: true, mode: 0o700 });
  fs.mkdirSync(home.userPluginsDir, { recursive: true, mode: 0o700 });
  return { created };
}
