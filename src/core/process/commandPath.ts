import * as fs from 'node:fs';
import * as path from 'node:path';

export type CommandLookup = { found: true; file: string } | { found: false; reason: 'not-on-path' | 'no-such-file' | 'not-executable'; searched: string[] };

/** A file that may be run: a regular file (links followed) with an execute bit for us (Windows has none to check). */
function runnable(file: string): 'yes' | 'missing' | 'not-executable' {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return 'missing';
  }
  if (!stat.isFile()) return 'missing';
  if (process.platform === 'win32') return 'yes';
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return 'yes';
  } catch {
    return 'not-executable';
  }
}

/**
 * Where `spawn` (no shell) would find `command`: a path is taken as it is
 * (relative to `cwd`), a bare name is looked up in each folder of `pathVar`
 * in order, as the system does. Says which folders were searched when it is
 * not there, so the message can show them.
 */
export function findCommand(command: string, pathVar: string | undefined, cwd: string = process.cwd()): CommandLookup {
  if (command.includes('/') || (process.platform === 'win32' && command.includes('\\'))) {
    const file = path.resolve(cwd, command);
    const state = runnable(file);
    if (state === 'yes') return { found: true, file };
    return { found: false, reason: state === 'missing' ? 'no-such-file' : 'not-executable', searched: [file] };
  }
  // Each folder once: a PATH often names one twice, and the message lists them.
  const dirs = [...new Set((pathVar ?? '').split(path.delimiter).filter(Boolean))];
  const extensions = process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean)] : [''];
  for (const dir of dirs) {
    for (const extension of extensions) {
      const file = path.join(dir, `${command}${extension}`);
      if (runnable(file) === 'yes') return { found: true, file };
    }
  }
  return { found: false, reason: 'not-on-path', searched: dirs };
}
