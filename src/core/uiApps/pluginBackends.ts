import * as fs from 'node:fs';
import { builtModulePath } from '../appPaths.js';
import { PendingByKey } from '../pendingByKey.js';
import { ProcessTreeWatch } from '../process/processTreeWatch.js';
import type { TreeRecord } from '../process/childTree.js';
import type { PidRegistry } from '../process/pidRegistry.js';
import { backendEnvironment, BackendProcess } from './backendProcess.js';
import type { BackendContext, InvokeOutcome } from './backendProtocol.js';
import { backendStamp } from './backendStamp.js';
import type { RunGateAnswer } from '../policy/runGate.js';

export type { BackendContext, InvokeOutcome } from './backendProtocol.js';

/** The host's answer to "may this plugin's backend run, and with what": exists, declares a backend, is trusted. */
export type BackendResolution = { ok: true; entry: string; ctx: BackendContext } | { ok: false; message: string };

export interface PluginBackendsOptions {
  /** The compiled `backendRunner.js`; default the one beside this module, or dist/'s when running from src/. */
  runnerPath?: string;
  /** Asked on every call, so a plugin that was removed or is no longer trusted stops at once. */
  resolve(pluginId: string): BackendResolution;
  /**
   * The run gate in full, asked right before a process is forked: the fork
   * may come well after the call's `resolve` (a replaced process is stopped
   * first), and trust may have been taken back meanwhile.
   */
  gate(pluginId: string): RunGateAnswer;
  logger?: { warn(message: string): void };
  /**
   * Where each backend process is recorded while it runs, with what is found
   * below it, so the next start of a host ends what is left of it after a
   * crash of this one (the host's, shared with its MCP servers). Without one,
   * descendants are still watched, in memory only.
   */
  pids?: PidRegistry;
  /** The clock of the audit's times; default Date.now. */
  now?: () => number;
  /** Node's own options for every backend process (the host-modules hook), before the runner. */
  nodeArgs?: readonly string[];
  /** How long a call (and a start) may take; default 30 s. */
  invokeTimeoutMs?: number;
}

/** A backend the host stopped because its plugin may no longer run (untrusted, changed, removed): what the audit keeps of it. */
export interface BackendStop {
  pluginId: string;
  pid: number;
  /** `not-runnable`: its plugin may no longer run; `idle`: no page called it for the idle time. */
  reason: 'not-runnable' | 'idle';
  /** When it was asked, and how long ending the process took. */
  at: number;
  durationMs: number;
}

interface Slot {
  /** The entry, ctx and folder stamp the process was started with: another key means the code changed. */
  key: string;
  process: BackendProcess;
  started: Promise<{ ok: true } | { ok: false; message: string }>;
  /** Calls under way (a page's long poll among them): a backend in use is never idle. */
  inFlight: number;
  /** When its last call ended (or it started). */
  lastUsed: number;
}

/** The runner beside this module (dist/), else the built one when this module runs from src/ (tests). */
export function defaultRunnerPath(): string {
  return builtModulePath(new URL('./backendRunner.js', import.meta.url), 'core', 'uiApps', 'backendRunner.js');
}

/**
 * Plugin backends (docs/rules/security.md#plugins): each plugin's
 * `backend.entry` runs in its own Node process, never in the host's. A
 * process starts on the plugin's first call, is restarted when a file under
 * its entry's folder changed (checked by stats on every call) or after it
 * died, and is stopped when the plugin can no longer run (removed,
 * untrusted), or when no page has called it for the idle time
 * (`sweepIdle`: its pages call it while they are open, so a backend whose
 * pages are all closed stops, and the next page that opens starts it again).
 * Nothing starts for a plugin `resolve` refuses.
 */
export class PluginBackends {
  private readonly slots = new Map<string, Slot>();
  /** Stops still in progress (replaced or released processes): dispose() waits for them too. */
  private readonly stopping = new Set<Promise<void>>();
  private readonly runnerPath: string;
  private readonly invokeTimeoutMs: number;
  /** One look below every running backend per interval, for all of them: the pid registry's, or one of its own. */
  private readonly trees: ProcessTreeWatch | undefined;
  private readonly stopListeners = new Set<(stop: BackendStop) => void>();
  private readonly stops = new PendingByKey<string>();
  private disposed = false;

  constructor(private readonly options: PluginBackendsOptions) {
    this.runnerPath = options.runnerPath ?? defaultRunnerPath();
    this.invokeTimeoutMs = options.invokeTimeoutMs ?? 30_000;
    if (!options.pids) this.trees = new ProcessTreeWatch();
  }

  /** How one plugin's process is kept track of: recorded in the pid registry (reaped after a crash), or only watched. */
  private recordFor(pluginId: string): TreeRecord {
    const { pids, logger } = this.options;
    if (!pids) {
      const trees = this.trees!;
      return {
        started: (pid, identity) => {
          if (identity) trees.add({ pid, identity });
        },
        descendantsOf: (pid) => trees.descendantsOf(pid),
        ended: (pid) => trees.remove(pid),
      };
    }
    return pids.treeRecord(pluginId, this.runnerPath, 'backend', (message) => logger?.warn(`the backend of plugin ${pluginId}: ${message}`));
  }

  /** Calls `method` of the plugin's backend, starting or restarting it as needed. Never throws. */
  async invoke(pluginId: string, method: string, params?: unknown): Promise<InvokeOutcome> {
    try {
      return await this.call(pluginId, method, params);
    } catch (error) {
      return { ok: false, message: `the backend of plugin ${pluginId} failed: ${(error as Error).message}` };
    }
  }

  /** Every backend stopped with a reason, after its process ended: the audit records each. */
  onStop(listener: (stop: BackendStop) => void): () => void {
    this.stopListeners.add(listener);
    return () => this.stopListeners.delete(listener);
  }

  /**
   * Ends the plugin's backend process, if one runs; the next call starts a
   * new one. With a `reason` (its plugin may no longer run), the listeners
   * are told once it has ended.
   */
  stop(pluginId: string, reason?: BackendStop['reason']): Promise<void> {
    const slot = this.slots.get(pluginId);
    if (slot) this.slots.delete(pluginId);
    // A stop already under way (another face asked first) is waited for, not taken for nothing to do.
    return this.stops.track(pluginId, slot && this.stopSlot(pluginId, slot, reason));
  }

  private async stopSlot(pluginId: string, slot: Slot, reason: BackendStop['reason'] | undefined): Promise<void> {
    const now = this.options.now ?? Date.now;
    const at = now();
    await this.release(slot);
    const pid = slot.process.pid;
    if (!reason || pid === undefined) return;
    for (const listener of this.stopListeners) {
      try {
        listener({ pluginId, pid, reason, at, durationMs: now() - at });
      } catch {
        // A broken listener must not fail the stop.
      }
    }
  }

  /** The processes running now (or starting, once forked). */
  running(): { pluginId: string; pid: number }[] {
    return [...this.slots].filter(([, slot]) => slot.process.pid !== undefined && !slot.process.finished).map(([pluginId, slot]) => ({ pluginId, pid: slot.process.pid! }));
  }

  /** Stops each backend with no call under way and none for `idleMs`; the audit records each as `idle`. Returns how many. */
  async sweepIdle(idleMs: number): Promise<number> {
    const now = (this.options.now ?? Date.now)();
    const idle = [...this.slots].filter(([, slot]) => slot.inFlight === 0 && now - slot.lastUsed >= idleMs).map(([pluginId]) => pluginId);
    await Promise.all(idle.map((pluginId) => this.stop(pluginId, 'idle')));
    return idle.length;
  }

  /** Ends every backend process (dispose, then SIGTERM after 2 s, then SIGKILL); later calls fail. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const slots = [...this.slots.values()];
    this.slots.clear();
    await Promise.all([...slots.map((slot) => this.release(slot)), ...this.stopping]);
    this.trees?.dispose();
  }

  private async call(pluginId: string, method: string, params: unknown): Promise<InvokeOutcome> {
    if (this.disposed) return { ok: false, message: 'plugin backends are shut down' };
    if (typeof method !== 'string' || method === '') return { ok: false, message: 'a backend call needs a method name' };
    const resolved = this.options.resolve(pluginId);
    if (!resolved.ok) {
      // A plugin that was removed or lost its trust must not keep running.
      await this.stop(pluginId, 'not-runnable');
      return { ok: false, message: resolved.message };
    }
    const slot = this.slotFor(pluginId, resolved);
    const now = this.options.now ?? Date.now;
    slot.inFlight++;
    try {
      const started = await slot.started;
      if (!started.ok) {
        if (this.slots.get(pluginId) === slot) this.slots.delete(pluginId);
        return started;
      }
      return await slot.process.invoke(method, params, this.invokeTimeoutMs);
    } finally {
      slot.inFlight--;
      slot.lastUsed = now();
    }
  }

  /**
   * The slot whose process runs the plugin's current code. Synchronous up to
   * the map update, so concurrent first calls share one start; a replaced
   * process is stopped before its successor starts (both would otherwise
   * touch the same data folder).
   */
  private slotFor(pluginId: string, resolved: { entry: string; ctx: BackendContext }): Slot {
    const key = JSON.stringify([resolved.entry, resolved.ctx, backendStamp(resolved.entry)]);
    const current = this.slots.get(pluginId);
    if (current && current.key === key && !current.process.finished) return current;
    const previous = current ? this.release(current) : Promise.resolve();
    const process = new BackendProcess({
      pluginId,
      entry: resolved.entry,
      ctx: resolved.ctx,
      runnerPath: this.runnerPath,
      nodeArgs: this.options.nodeArgs ?? [],
      env: backendEnvironment(),
      startTimeoutMs: this.invokeTimeoutMs,
      log: (line) => this.options.logger?.warn(line),
      gate: () => this.options.gate(pluginId),
      record: this.recordFor(pluginId),
    });
    const slot: Slot = { key, process, started: Promise.resolve({ ok: false, message: '' }), inFlight: 0, lastUsed: (this.options.now ?? Date.now)() };
    slot.started = previous
      .then(() => {
        // Stopped or replaced while the previous process was ending: fork nothing.
        if (this.disposed || this.slots.get(pluginId) !== slot) return { ok: false as const, message: `the backend of plugin ${pluginId} was stopped` };
        if (!fs.existsSync(this.runnerPath)) return { ok: false as const, message: `the backend runner ${this.runnerPath} is missing: run "npm run build"` };
        fs.mkdirSync(resolved.ctx.dataDir, { recursive: true });
        fs.mkdirSync(resolved.ctx.stateDir, { recursive: true });
        return process.start();
      })
      .catch((error: unknown) => ({ ok: false as const, message: `could not start the backend of plugin ${pluginId}: ${(error as Error).message}` }));
    this.slots.set(pluginId, slot);
    return slot;
  }

  private release(slot: Slot): Promise<void> {
    const stopped = slot.process.stop().finally(() => this.stopping.delete(stopped));
    this.stopping.add(stopped);
    return stopped;
  }
}
