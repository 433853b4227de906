import * as fs from 'node:fs';
import { afterAll } from 'vitest';
import { until } from '../helpers/until.js';

/**
 * A test file stops what it starts: after its last hook, no process it
 * started (a host's servers, `chatos serve`, a provider, a CLI) may still run
 * below this worker. A worker runs file after file in one process
 * (when vitest.config.ts sets `isolate: false`), so one file's leftovers would run on
 * into the next (a leases test counted them, a progress test lost reports):
 * this check names them at the file that left them. Loaded before each test
 * file (vitest.config.ts, setupFiles); its afterAll runs after the file's own.
 */

interface Running {
  pid: number;
  command: string;
}

/** The processes below `root` that have not exited (a zombie has: only its parent has not read its status yet), from /proc. */
function runningBelow(root: number): Running[] {
  const parents = new Map<number, number[]>();
  const states = new Map<number, string>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // it exited meanwhile
    }
    // pid (comm) state ppid …: the command may hold spaces and parentheses, so read from the last ")".
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(name);
    states.set(pid, state!);
    parents.set(Number(ppid), [...(parents.get(Number(ppid)) ?? []), pid]);
  }
  const found: Running[] = [];
  const walk = (pid: number) => {
    for (const child of parents.get(pid) ?? []) {
      if (states.get(child) !== 'Z') found.push({ pid: child, command: commandOf(child) });
      walk(child);
    }
  };
  walk(root);
  return found;
}

function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').slice(0, 300);
  } catch {
    return '(exited)';
  }
}

// Linux only: elsewhere there is no /proc to read, and CI runs on Linux.
if (fs.existsSync('/proc/self/stat')) {
  afterAll(async () => {
    // A process stopped in the file's last hook may still be on its way out: wait for that to show, not for a time.
    const gone = await until('the processes this file started to exit', () => (runningBelow(process.pid).length === 0 ? true : undefined), 20_000).catch(() => false);
    if (!gone) {
      const left = runningBelow(process.pid).map((p) => `  ${p.pid} ${p.command}`);
      // Stopped here too, so they run on into nothing else (nor outlive the run as orphans).
      for (const p of runningBelow(process.pid)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // exited meanwhile
        }
      }
      if (left.length) throw new Error(`processes this test file started still run after its last hook; stop them in an afterEach/afterAll:\n${left.join('\n')}`);
    }
  });
}
