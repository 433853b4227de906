import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import type { CreateTaskOptions, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { RequestTaskStore } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError, type CreateTaskResult, type Request, type RequestId, type Result, type Task } from '@modelcontextprotocol/sdk/types.js';

/**
 * A server's sampling or elicitation request run as a task (MCP 2025-11-25
 * tasks, docs/using/sampling.md#async-requests): the client answers at once
 * with the task, the person-in-the-loop flow runs as for any request, and
 * the server polls `tasks/get` and fetches `tasks/result`.
 *
 * The tasks protocol is the SDK's own: its Protocol answers tasks/get,
 * tasks/result, tasks/list and tasks/cancel from the task store given to the
 * Client, checks that the client declared the method as a task request, and
 * its InMemoryTaskStore keeps each task and drops it at its ttl. What is the
 * host's is here: the store is one per connection (one server instance), so a
 * task id is only ever found by the instance that created it; it holds a
 * bounded number of tasks with a capped ttl (docs/rules/mcp-yaml.md#async-requests);
 * a task the server cancels, or whose ttl ends, stops its run (the card is
 * withdrawn); and a run that fails is kept as the JSON-RPC error the request
 * would have had, which tasks/result returns.
 */

/** Tasks one server instance may make the host keep at once (running or ended, until their ttl). */
export const MAX_TASKS_PER_INSTANCE = 32;
/** The longest a task is kept (the server's ttl is capped to it; none asked is this): two user steps of 10 min fit. */
const MAX_TASK_TTL_MS = 30 * 60_000;

/** The refusal of a task past MAX_TASKS_PER_INSTANCE: the connection tells the host's policy, which audits it. */
export class TaskLimitError extends McpError {
  constructor(readonly reason: string) {
    super(ErrorCode.InvalidRequest, reason);
  }
}

/** A failed run's error, kept on its stored result (a key no JSON carries) so tasks/result can return it as the error it was. */
const FAILURE = Symbol('chatos.taskFailure');
type Failure = { code: number; message: string };
type FailedResult = Result & { [FAILURE]: Failure };

const isFailed = (result: Result): result is FailedResult => Object.hasOwn(result, FAILURE);

/** McpError's message carries "MCP error <code>: " before the reason: the reason alone is said again. */
const reasonOf = (error: unknown): Failure => {
  if (error instanceof McpError) return { code: error.code, message: error.message.replace(/^MCP error -?\d+: /, '') };
  // Never a stack: the message alone.
  return { code: ErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) };
};

/**
 * One connection's task store: the SDK's InMemoryTaskStore, bounded, with a
 * signal per running task that aborts when the server cancels it, its ttl
 * ends, or the connection closes.
 */
export class InstanceTaskStore implements TaskStore {
  private readonly inner = new InMemoryTaskStore();
  private readonly running = new Map<string, { controller: AbortController; timer: ReturnType<typeof setTimeout> }>();

  constructor(private readonly serverId: string) {}

  async createTask(taskParams: CreateTaskOptions, requestId: RequestId, request: Request, sessionId?: string): Promise<Task> {
    const held = this.inner.getAllTasks().length;
    if (held >= MAX_TASKS_PER_INSTANCE) {
      throw new TaskLimitError(
        `ChatOS refused to run ${request.method} as a task: server "${this.serverId}" already has ${held} tasks kept (at most ${MAX_TASKS_PER_INSTANCE}); ask with a shorter ttl, or without a task`,
      );
    }
    const asked = taskParams.ttl;
    const ttl = typeof asked === 'number' && Number.isFinite(asked) && asked > 0 ? Math.min(asked, MAX_TASK_TTL_MS) : MAX_TASK_TTL_MS;
    const task = await this.inner.createTask({ ...taskParams, ttl }, requestId, request, sessionId);
    const controller = new AbortController();
    // The store drops the task at its ttl, running or not: nobody can read its answer then, so its run stops.
    const timer = setTimeout(() => this.stop(task.taskId, `the task's ttl (${ttl} ms) ended before it did`), ttl);
    timer.unref?.();
    this.running.set(task.taskId, { controller, timer });
    // A copy: the store's own object changes as the run goes on, and the answer says the task as it was created.
    return { ...task };
  }

  /** The signal of a running task: aborted when the server cancels it, its ttl ends, or the connection closes. */
  signalOf(taskId: string): AbortSignal {
    return this.running.get(taskId)?.controller.signal ?? AbortSignal.abort('the task is no longer kept');
  }

  getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    return this.inner.getTask(taskId, sessionId);
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result, sessionId?: string): Promise<void> {
    this.forget(taskId);
    // The reason a task failed is its status message, for a server that polls tasks/get and never asks for the result.
    if (isFailed(result)) await this.inner.updateTaskStatus(taskId, 'working', result[FAILURE].message, sessionId);
    await this.inner.storeTaskResult(taskId, status, result, sessionId);
  }

  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const task = await this.inner.getTask(taskId, sessionId);
    // The SDK asks only for an ended task's result: one cancelled has none (the store's own words would be an internal error).
    if (task?.status === 'cancelled') throw new McpError(ErrorCode.InvalidRequest, `task ${taskId} was cancelled, so it has no result: ${task.statusMessage ?? 'no reason given'}`);
    const result = await this.inner.getTaskResult(taskId, sessionId);
    if (!isFailed(result)) return result;
    // tasks/result returns what the request would have: here, its error.
    const { code, message } = result[FAILURE];
    throw new McpError(code, message);
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string): Promise<void> {
    // Only the SDK's tasks/cancel handler sets `cancelled` here (a run ends completed or failed): the server cancelled it.
    const cancelled = status === 'cancelled';
    await this.inner.updateTaskStatus(taskId, status, cancelled ? 'the server cancelled the task (tasks/cancel); ChatOS withdrew the request' : statusMessage, sessionId);
    if (cancelled) this.stop(taskId, 'the server cancelled the task');
  }

  listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    return this.inner.listTasks(cursor, sessionId);
  }

  /** The connection closed: every running task stops, and every task and its timers are dropped. */
  dispose(): void {
    for (const taskId of [...this.running.keys()]) this.stop(taskId, 'the connection closed');
    this.inner.cleanup();
  }

  private stop(taskId: string, reason: string): void {
    const entry = this.running.get(taskId);
    this.forget(taskId);
    entry?.controller.abort(new McpError(ErrorCode.InvalidRequest, reason));
  }

  private forget(taskId: string): void {
    const entry = this.running.get(taskId);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.running.delete(taskId);
  }
}

/**
 * Runs `run` as a task of `store`: the task is created (through the SDK's
 * request task store, which tells the server its status changes) and
 * returned at once; the run goes on with the task's signal, and its result,
 * or its error, is stored for tasks/result. A task cancelled or dropped
 * meanwhile keeps nothing.
 */
export async function startRequestTask(store: InstanceTaskStore, requestStore: RequestTaskStore, ttl: number | undefined, run: (signal: AbortSignal) => Promise<Result>): Promise<CreateTaskResult> {
  const task = await requestStore.createTask(ttl === undefined ? {} : { ttl });
  const signal = store.signalOf(task.taskId);
  void (async () => {
    let outcome: { status: 'completed' | 'failed'; result: Result };
    try {
      outcome = { status: 'completed', result: await run(signal) };
    } catch (error) {
      outcome = { status: 'failed', result: { [FAILURE]: reasonOf(error) } as FailedResult };
    }
    // Cancelled, dropped at its ttl, or the connection closed: the server asked for nothing more.
    if (signal.aborted) return;
    await requestStore.storeTaskResult(task.taskId, outcome.status, outcome.result).catch(() => undefined);
  })();
  return { task };
}
