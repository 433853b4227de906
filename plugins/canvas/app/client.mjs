// How a Canvas page talks to the canvas: reads and writes through the app's
// own MCP server (host.tools.call, so the gateway's grants, confirmations and
// audit apply to the page as to any caller), the history through the
// plugin's backend, and a way to hear that something changed.

/** A refused call, with its code from docs/rules/canvas.md#error-codes when the server gave one. */
export class CanvasCallError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const textOf = (result) => result?.content?.find((c) => c.type === 'text')?.text ?? 'the call failed';

export function canvasClient(host) {
  const read = async (tool, args) => {
    const result = await host.tools.call(tool, args);
    if (result.isError) {
      const error = result.structuredContent?.error;
      throw new CanvasCallError(error?.code ?? 'FAILED', error?.message ?? textOf(result));
    }
    return result.structuredContent;
  };
  return {
    list: () => read('list_instances', {}),
    schema: (instanceId) => read('get_schema', { instance_id: instanceId }),
    /** The whole tool result: a refused patch is an answer to show, not an exception. */
    patch: (args) => host.tools.call('patch_ui_state', args),
    history: async (instanceId, limit = 50) => (await host.backend.invoke('history', { instance_id: instanceId, limit })).entries,
  };
}

/**
 * Orders reads that overlap: `begin()` before a read, `isNewest(ticket)`
 * when its answer arrives. An answer is used only when no read begun after
 * it was used already: a slow read begun before a change must not paint over
 * the change a later read showed (nothing would kick again to repair it).
 */
export function newestReads() {
  let begun = 0;
  let used = 0;
  return {
    begin: () => ++begun,
    isNewest(ticket) {
      if (ticket < used) return false;
      used = ticket;
      return true;
    },
  };
}

/** A read that has not answered after this long no longer holds up the next one (its answer, if it comes, is still ordered by newestReads). */
const STUCK_REFRESH_MS = 10_000;

/**
 * Reads now, and again whenever the canvas may have changed: the host saw a
 * call to patch_ui_state (from any caller: an agent, the CLI of this host,
 * another page), or the backend saw the data folder change (a call in
 * another process). The listeners are in place before the first read, so a
 * change made while it runs is read again, never missed. At most one
 * refresh runs at a time; what arrives meanwhile asks for exactly one more.
 * Returns the function that stops.
 */
export function followChanges(host, refresh) {
  let running = false;
  let again = false;
  let disposed = false;
  const settled = (promise) => {
    let timer;
    const stuck = new Promise((resolve) => (timer = setTimeout(resolve, STUCK_REFRESH_MS)));
    return Promise.race([promise.catch(() => undefined), stuck]).finally(() => clearTimeout(timer));
  };
  const kick = async () => {
    if (disposed) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await settled(refresh());
      } while (again && !disposed);
    } finally {
      running = false;
    }
  };
  const off = host.events.on('tool.called', (event) => {
    if (event?.tool === 'patch_ui_state') void kick();
  });
  void kick();
  void (async () => {
    let since;
    while (!disposed) {
      try {
        const answer = await host.backend.invoke('waitForChange', since === undefined ? {} : { since });
        // The first answer is the folder's stamp now: a change between the first read and it is read once more.
        if (answer.changed || since === undefined) void kick();
        since = answer.stamp;
      } catch {
        // The backend is restarting or gone: try again in a while, the host's events still arrive.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    }
  })();
  return () => {
    disposed = true;
    off?.();
  };
}
