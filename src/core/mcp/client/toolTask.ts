import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CreateTaskResultSchema, type CallToolResult, type Task } from '@modelcontextprotocol/sdk/types.js';
import { HostCallToolResultSchema } from '../connection/callToolResult.js';

/**
 * A tool whose `execution.taskSupport` is `required` (MCP 2025-11-25
 * tasks) is called as a task (docs/using/tools.md#long-tasks): the call
 * creates it, its status is polled at the interval the server asks (within
 * bounds) and reported as the call's progress, its result is fetched once
 * it completes, and cancelling the call cancels the task on the server.
 * Each status reported restarts the call's timeout, as progress does; the
 * task as a whole runs until it ends, the server forgets it (its ttl), the
 * user cancels it, or the call's maximum total time (the connection's
 * deadline) aborts the signal, which cancels the task too.
 */

/** Poll no faster than this, whatever the server asks, and no slower than the longest. */
const MIN_POLL_MS = 250;
const MAX_POLL_MS = 5_000;
const DEFAULT_POLL_MS = 1_000;

const TERMINAL = new Set<Task['status']>(['completed', 'failed', 'cancelled']);

/** Whether the server said it runs tools/call as tasks: without it, a client must not ask for one. */
export function serverRunsToolTasks(client: Client): boolean {
  return client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

/** Waits `ms`, or until `signal` aborts (then throws its reason). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

const failedResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** The task's state as a person reads it on the call's card. */
const statusText = (task: Task) => `task ${task.status.replace('_', ' ')}${task.statusMessage ? `: ${task.statusMessage}` : ''}`;

/** Calls `name` as a task and waits for its result; `options` (timeout, signal, progress) are the call's own. */
export async function callToolAsTask(client: Client, params: { name: string; arguments: Record<string, unknown>; _meta: Record<string, unknown> }, options: RequestOptions): Promise<CallToolResult> {
  if (!serverRunsToolTasks(client)) {
    return failedResult(`${params.name} needs task-based execution, but its server does not say it runs tools as tasks (capabilities.tasks.requests.tools.call), so it cannot be called`);
  }
  const { signal, onprogress, timeout } = options;
  // Each request of the task is one plain request with the call's timeout; progress is the task's status, reported here.
  const each: RequestOptions = { signal, timeout };
  const created = await client.request({ method: 'tools/call', params }, CreateTaskResultSchema, { ...each, task: {} });
  let task: Task = created.task;
  const cancel = () => void client.experimental.tasks.cancelTask(task.taskId, { timeout }).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (let polls = 0; ; polls++) {
      onprogress?.({ progress: polls, message: statusText(task) });
      if (TERMINAL.has(task.status)) break;
      // The server has something to ask (an elicitation) or the result is near: tasks/result delivers what it queued and waits for the end.
      if (task.status === 'input_required') return await client.experimental.tasks.getTaskResult(task.taskId, HostCallToolResultSchema, each);
      await pause(Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollInterval ?? DEFAULT_POLL_MS)), signal);
      task = await client.experimental.tasks.getTask(task.taskId, each);
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
  if (task.status === 'completed') return client.experimental.tasks.getTaskResult(task.taskId, HostCallToolResultSchema, each);
  return failedResult(
    task.status === 'failed' ? `the task failed${task.statusMessage ? `: ${task.statusMessage}` : ''}` : `the server cancelled the task${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
  );
}
