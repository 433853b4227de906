import type { QuestionCall } from '../../shared/question.js';
import type { Caller } from './toolSource.js';

/** One server instance's calls in flight: who makes them, and a signal for when the last one ends (made only when asked for). */
interface Busy {
  callers: Set<{ caller: Caller; callId?: string }>;
  idle?: AbortController;
}

/**
 * Who is calling each server instance now (docs/using/elicitation.md#who-is-asked): the
 * gateway's MCP calls, by server and the conversation whose instance runs
 * them. What a server asks the host in between (an elicitation) is put to
 * these callers only; an instance with no call in flight is idle, and an
 * idle server may not ask anything. A question outlives no call: the signal
 * of `idleSignal` aborts when the instance's last call ends.
 */
export class ServerCallers {
  /**
   * By server, then lease. Two maps, not one keyed by the two joined: every call begins and ends here, and a
   * joined key was a new string to build and hash each time, where the ids themselves keep their hashes.
   * A server's map stays once made (servers are few); an instance's entry goes when its last call ends.
   */
  private readonly busy = new Map<string, Map<string, Busy>>();

  /** A call starts on this instance; the function returned ends it (once). */
  begin(serverId: string, lease: string, caller: Caller, callId?: string): () => void {
    let leases = this.busy.get(serverId);
    if (!leases) this.busy.set(serverId, (leases = new Map()));
    let entry = leases.get(lease);
    if (!entry) leases.set(lease, (entry = { callers: new Set() }));
    const token = callId === undefined ? { caller } : { caller, callId };
    entry.callers.add(token);
    const busy = entry;
    const instances = leases;
    return () => {
      if (!busy.callers.delete(token) || busy.callers.size > 0) return;
      if (instances.get(lease) === busy) instances.delete(lease);
      busy.idle?.abort();
    };
  }

  private entryOf(serverId: string, lease: string | undefined): Busy | undefined {
    return lease === undefined ? undefined : this.busy.get(serverId)?.get(lease);
  }

  /** The callers of this instance's calls in flight (empty when it is idle). */
  of(serverId: string, lease: string | undefined): Caller[] {
    const entry = this.entryOf(serverId, lease);
    return entry ? [...entry.callers].map((token) => token.caller) : [];
  }

  /**
   * The one call in flight on this instance, when there is exactly one and it has an id: a question the server asks now
   * is that call's, and shows on its card. Named by its conversation and the model's id, since the id alone repeats
   * across conversations. Two calls at once name none (it could be either's).
   */
  callOf(serverId: string, lease: string | undefined): QuestionCall | undefined {
    const entry = this.entryOf(serverId, lease);
    const [only, ...more] = entry ? [...entry.callers] : [];
    return more.length === 0 && only?.callId !== undefined ? { conversationId: only.caller.conversationId, callId: only.callId } : undefined;
  }

  /** Aborts when this instance has no call in flight any more (already aborted when it has none now). */
  idleSignal(serverId: string, lease: string | undefined): AbortSignal {
    const entry = this.entryOf(serverId, lease);
    if (!entry) return AbortSignal.abort();
    return (entry.idle ??= new AbortController()).signal;
  }
}
