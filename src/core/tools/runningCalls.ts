import type { Progress } from '@modelcontextprotocol/sdk/types.js';

/** What a face shows of a long call: the server's latest progress notification. */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** A progress notification as a face shows it (only the fields the MCP spec defines, whatever else the server sent). */
export function callProgress(progress: Progress): CallProgress {
  return {
    progress: progress.progress,
    ...(typeof progress.total === 'number' ? { total: progress.total } : {}),
    ...(typeof progress.message === 'string' ? { message: progress.message } : {}),
  };
}

/**
 * Tool calls a person may cancel while they run, by a key the face knows (a
 * chat call's conversation and call id, a Playground call's own id). Each
 * call gets its own signal, aborted by `cancel` or by its parent (a Stop of
 * the whole turn); the gateway passes it to the MCP request, so the server
 * is sent `notifications/cancelled`. A key is a plain string in a Map: a
 * name from outside never touches an object's prototype.
 */
export class RunningCalls {
  private readonly calls = new Map<string, AbortController>();

  /** Starts tracking a call; `end()` must be called when it settles (a later call may reuse the key). */
  begin(key: string, parent?: AbortSignal): { signal: AbortSignal; end(): void } {
    const controller = new AbortController();
    const forward = () => controller.abort(parent?.reason);
    if (parent?.aborted) forward();
    else parent?.addEventListener('abort', forward, { once: true });
    this.calls.set(key, controller);
    return {
      signal: controller.signal,
      end: () => {
        parent?.removeEventListener('abort', forward);
        if (this.calls.get(key) === controller) this.calls.delete(key);
      },
    };
  }

  /** Cancels the call running under `key`; false when none is. */
  cancel(key: string): boolean {
    const controller = this.calls.get(key);
    if (!controller || controller.signal.aborted) return false;
    controller.abort(new Error('cancelled by the user'));
    return true;
  }

  get size(): number {
    return this.calls.size;
  }
}
