/**
 * The program a plugin backend runs in: started by `BackendProcess` with
 * `child_process.fork`, one process per plugin, never the host's own. It
 * loads the plugin's `backend.entry`, calls `createUiAppsBackend(ctx)` once,
 * then answers `invoke` messages over the IPC channel (protocol in
 * `backendProtocol.ts`). When the host asks, or the channel closes (the host
 * quit or died), it gives `dispose()` a bounded time and exits.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RunnerRequestSchema, type BackendContext, type RunnerReply } from './backendProtocol.js';

/** What `createUiAppsBackend(ctx)` returns. */
interface PluginBackend {
  methods: Record<string, (params: unknown, ctx: BackendContext) => unknown>;
  dispose?: () => unknown;
}

type Loaded = { kind: 'idle' } | { kind: 'loading'; done: Promise<void> } | { kind: 'ready'; backend: PluginBackend; ctx: BackendContext } | { kind: 'failed' };

const DISPOSE_TIMEOUT_MS = 2_000;

let loaded: Loaded = { kind: 'idle' };
let exiting = false;
/** Replies not yet handed to the channel: exiting waits for them, or the last words (a failed dispose) are lost. */
const unsent = new Set<Promise<void>>();

function send(reply: RunnerReply): void {
  // After the host went away there is no one to tell; send() would throw ERR_IPC_CHANNEL_CLOSED.
  if (!process.connected) return;
  const sent = new Promise<void>((resolve) => process.send!(reply, undefined, undefined, () => resolve()));
  unsent.add(sent);
  void sent.then(() => unsent.delete(sent));
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

async function init(entry: string, ctx: BackendContext): Promise<void> {
  const entryName = path.relative(ctx.pluginDir, entry).split(path.sep).join('/') || entry;
  try {
    const module = (await import(pathToFileURL(entry).href)) as { createUiAppsBackend?: unknown };
    if (typeof module.createUiAppsBackend !== 'function') throw new Error(`${entryName} must export createUiAppsBackend(ctx)`);
    const backend = (await module.createUiAppsBackend(ctx)) as Partial<PluginBackend> | null | undefined;
    if (!backend || typeof backend.methods !== 'object' || backend.methods === null) {
      throw new Error(`createUiAppsBackend(ctx) in ${entryName} must return { methods: { name: async (params, ctx) => result } }`);
    }
    loaded = { kind: 'ready', backend: backend as PluginBackend, ctx };
    send({ type: 'ready' });
  } catch (error) {
    loaded = { kind: 'failed' };
    send({ type: 'init-failed', message: messageOf(error) });
  }
}

async function invoke(id: number, method: string, params: unknown): Promise<void> {
  if (loaded.kind !== 'ready') {
    send({ type: 'result', id, ok: false, message: 'the backend is not ready' });
    return;
  }
  const { backend, ctx } = loaded;
  // Own properties only: "constructor" or "toString" must not resolve to Object.prototype's.
  const fn = Object.hasOwn(backend.methods, method) ? backend.methods[method] : undefined;
  if (typeof fn !== 'function') {
    const known = Object.keys(backend.methods).filter((name) => typeof backend.methods[name] === 'function');
    send({ type: 'result', id, ok: false, message: `unknown method "${method}"; the backend has: ${known.join(', ') || '(none)'}` });
    return;
  }
  let result: unknown;
  try {
    result = await fn.call(backend.methods, params, ctx);
  } catch (error) {
    send({ type: 'result', id, ok: false, message: messageOf(error) });
    return;
  }
  // The channel carries JSON: check here so the author gets a message, not a lost reply.
  let json: string | undefined;
  try {
    json = result === undefined ? 'null' : JSON.stringify(result);
  } catch (error) {
    send({ type: 'result', id, ok: false, message: `method "${method}" returned a value that is not JSON-serializable: ${messageOf(error)}` });
    return;
  }
  if (json === undefined) {
    send({ type: 'result', id, ok: false, message: `method "${method}" returned a ${typeof result}, which is not JSON-serializable` });
    return;
  }
  send({ type: 'result', id, ok: true, result: JSON.parse(json) as unknown });
}

/** Runs the backend's dispose() (at most DISPOSE_TIMEOUT_MS, even if it hangs), then exits. */
async function shutdown(code: number): Promise<never> {
  if (!exiting) {
    exiting = true;
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, DISPOSE_TIMEOUT_MS).unref());
    const disposed = (async () => {
      if (loaded.kind === 'loading') await loaded.done;
      const current: Loaded = loaded;
      if (current.kind === 'ready') await current.backend.dispose?.();
    })().catch((error: unknown) => report(`dispose() failed: ${messageOf(error)}`));
    await Promise.race([disposed.then(() => Promise.all(unsent)), deadline]);
  }
  process.exit(code);
}

/** Errors outside any call go to the host's log. */
function report(text: string): void {
  send({ type: 'log', text });
}

process.on('message', (raw: unknown) => {
  const parsed = RunnerRequestSchema.safeParse(raw);
  if (!parsed.success) {
    report(`ignored a malformed message from the host: ${JSON.stringify(raw)?.slice(0, 200)}`);
    return;
  }
  const request = parsed.data;
  switch (request.type) {
    case 'init':
      if (loaded.kind !== 'idle') return report('ignored a second init');
      // 'loading' is set before init() runs a line, so a synchronous failure in it cannot be overwritten.
      loaded = { kind: 'loading', done: Promise.resolve().then(() => init(request.entry, request.ctx)) };
      return;
    case 'invoke':
      void invoke(request.id, request.method, request.params);
      return;
    case 'dispose':
      void shutdown(0);
      return;
  }
});

// The host quit or died: nobody will ever call again.
process.on('disconnect', () => void shutdown(0));

// A rejection nobody awaited (a forgotten background promise) is reported and the backend goes on;
// it does not corrupt the process the way a thrown exception can.
process.on('unhandledRejection', (reason) => report(`unhandled promise rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));

// After an uncaught exception the process state is unknown: report it, then exit; the host starts a
// fresh process on the next call. To stderr, not the channel: the host logs stderr lines and keeps the
// last ones for the message the calls in flight fail with (a pipe write is synchronous, so it survives the exit).
process.on('uncaughtException', (error) => {
  process.stderr.write(`uncaught exception: ${error.stack ?? error.message}\n`);
  void shutdown(1);
});
