// The Canvas backend: runs in its own Node process, started by ChatOS on the
// page's first host.backend.invoke(). It only reads what the canvas server
// writes in the app's data folder (the server stays the one writer):
//   history:       the recorded patch_ui_state calls of an instance, newest first;
//   waitForChange: answers when the folder's files change, in any process
//                  (a CLI call beside the app, another conversation's
//                  server), or after a while with nothing new: the page's
//                  way to hear about writes the host's own events do not see.
import * as fs from 'node:fs';
import { readHistory, stampOf } from '../mcp/historyFile.mjs';

const MAX_WAIT_MS = 20_000;
const POLL_MS = 500;

/** One watcher of the data folder for every waiting page; fs.watch may miss events on some file systems, so a slow poll backs it up. */
function folderWatcher(dir) {
  const waiters = new Set();
  let watcher;
  let poll;
  const check = () => {
    const stamp = stampOf(dir);
    for (const waiter of [...waiters]) if (waiter.since !== stamp) waiter.done(stamp);
  };
  const start = () => {
    try {
      watcher = fs.watch(dir, check);
      watcher.on('error', () => undefined);
    } catch {
      watcher = undefined;
    }
    poll = setInterval(check, POLL_MS);
  };
  const stop = () => {
    watcher?.close();
    clearInterval(poll);
    watcher = undefined;
  };
  return {
    wait(since, timeoutMs) {
      return new Promise((resolve) => {
        const waiter = {
          since,
          done(stamp) {
            clearTimeout(waiter.timer);
            waiters.delete(waiter);
            if (waiters.size === 0) stop();
            resolve({ stamp, changed: stamp !== since });
          },
        };
        waiter.timer = setTimeout(() => waiter.done(stampOf(dir)), timeoutMs);
        if (waiters.size === 0) start();
        waiters.add(waiter);
        check();
      });
    },
    dispose() {
      for (const waiter of [...waiters]) waiter.done(stampOf(dir));
      stop();
    },
  };
}

export function createUiAppsBackend(ctx) {
  const watcher = folderWatcher(ctx.dataDir);
  return {
    methods: {
      /** `{ instance_id?, limit? }` → `{ entries }`, newest first (at most 200). */
      async history(params) {
        const instanceId = typeof params?.instance_id === 'string' ? params.instance_id : undefined;
        const limit = Number.isInteger(params?.limit) ? Math.min(Math.max(params.limit, 1), 200) : 50;
        return { entries: readHistory(ctx.dataDir, { instanceId, limit }) };
      },
      /** `{ since? }` → `{ stamp, changed }`: at once when the files differ from `since` (or no `since` is given), else when they change, else after 20 s. */
      async waitForChange(params) {
        const since = typeof params?.since === 'string' ? params.since : undefined;
        if (since === undefined) return { stamp: stampOf(ctx.dataDir), changed: false };
        const timeoutMs = Number.isInteger(params?.timeoutMs) ? Math.min(Math.max(params.timeoutMs, 10), MAX_WAIT_MS) : MAX_WAIT_MS;
        return watcher.wait(since, timeoutMs);
      },
    },
    dispose() {
      watcher.dispose();
    },
  };
}
