import type { Scheduler } from '../ports.js';
import type { AuditDraft } from './auditLine.js';

/** How long the refusals of one server, method and code are folded into one record. */
export const REFUSAL_WINDOW_MS = 60_000;

/** One server, method and code refused within the current minute: how many more than the one written. */
interface Window {
  count: number;
  /** The latest refusal folded: the record written for them all carries its time, caller and words. */
  last?: AuditDraft;
  timer: unknown;
}

/**
 * The refusals of what servers ask the host (sampling, elicitation, roots:
 * docs/rules/gateway.md#audit), recorded once per server, method and code
 * per minute with a count.
 *
 * A server may ask as often as it likes, idle or not, and each request it
 * is refused costs it nothing; written one record each, 32,000 requests in
 * ten seconds rotated the audit twice and took the calls before them out
 * of `chatos audit` and the History. So the first refusal of a quiet
 * minute is written at once (the user sees it), the ones after it within
 * that minute are counted, and the count is written as one record when the
 * minute ends, which opens the next minute for a flood that goes on.
 */
export class RefusalTally {
  /** By server, method and code (names from outside, so a Map). */
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly deps: {
      scheduler: Scheduler;
      append(draft: AuditDraft): void;
    },
  ) {}

  record(draft: AuditDraft): void {
    const key = `${draft.serverId ?? ''}\u0000${draft.tool ?? ''}\u0000${draft.reason ?? ''}`;
    const window = this.windows.get(key);
    if (window) {
      window.count++;
      window.last = draft;
      return;
    }
    this.deps.append(draft);
    this.open(key);
  }

  /** Writes every count not written yet (the host stops). */
  flush(): void {
    for (const window of this.windows.values()) {
      this.deps.scheduler.clearTimeout(window.timer);
      this.write(window);
    }
    this.windows.clear();
  }

  private open(key: string): void {
    const window: Window = { count: 0, timer: undefined };
    window.timer = this.deps.scheduler.setTimeout(() => this.close(key, window), REFUSAL_WINDOW_MS);
    this.windows.set(key, window);
  }

  /** The minute is over: its count is written; a quiet minute ends the window, a busy one opens the next. */
  private close(key: string, window: Window): void {
    this.windows.delete(key);
    if (window.count === 0) return;
    this.write(window);
    this.open(key);
  }

  private write(window: Window): void {
    if (window.count > 0 && window.last) this.deps.append({ ...window.last, count: window.count });
  }
}
