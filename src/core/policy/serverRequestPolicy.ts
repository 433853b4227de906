import type { Asker, ClientRequestPolicy } from '../mcp/client/clientFeatures.js';
import type { ServerCallers } from '../tools/serverCallers.js';
import type { RunGateAnswer } from './runGate.js';

export interface ServerRequestPolicyDeps {
  /** Who calls each server instance now. */
  callers: Pick<ServerCallers, 'of'>;
  /** Whether this app (acting for one of its plugins, when `asPlugin`) is granted this server now (the registry's grants). */
  granted(appId: string, serverId: string, asPlugin?: string): boolean;
  /** The run gate's answer for a plugin's server (trusted, unchanged); other servers always may. */
  runnable(asker: Asker): RunGateAnswer;
  /** The app the instance's conversation acts for (its agent's), when known: checked for roots/list like a caller's. */
  leaseApp?(asker: Asker): string | undefined;
  /** Told each refusal (the audit records it). */
  refused?(asker: Asker, method: string, code: string, reason: string): void;
}

type Answer = { ok: true } | { ok: false; reason: string };

/**
 * What a server may ask while no call of it is in flight: a question to no
 * one (its workspace roots, docs/using/agents.md#workspace-roots), which a
 * server asks as soon as it starts.
 */
const ASKED_WHILE_IDLE: ReadonlySet<string> = new Set(['roots/list']);

/**
 * Whether a server may ask the host something (docs/using/elicitation.md#who-is-asked): only
 * while it serves a call (an idle server may not pop up questions; roots
 * alone may be asked at any time), only when every caller in flight on
 * that instance is granted the server (for roots, the app its conversation
 * acts for too), and never for a plugin that may not run (untrusted, changed,
 * unknown).
 */
export class ServerRequestPolicy implements ClientRequestPolicy {
  constructor(private readonly deps: ServerRequestPolicyDeps) {}

  mayAsk(asker: Asker, method: string): Answer {
    const id = asker.definition.id;
    const refuse = (code: string, reason: string): Answer => {
      this.deps.refused?.(asker, method, code, reason);
      return { ok: false, reason: `ChatOS refused ${method}: ${reason}` };
    };
    const gate = this.deps.runnable(asker);
    if (!gate.ok) return refuse('NOT_RUNNABLE', `server "${id}" belongs to a plugin that may not run (${gate.message})`);
    const callers = this.deps.callers.of(id, asker.lease);
    if (callers.length === 0 && !ASKED_WHILE_IDLE.has(method)) return refuse('IDLE_SERVER', `server "${id}" has no tool call in flight; a server may ask the user only while it serves a call`);
    const ungranted = callers.find((caller) => !this.deps.granted(caller.appId, id, caller.asPlugin));
    if (ungranted) return refuse('NOT_GRANTED', `server "${id}" is not granted to ${ungranted.appId}, which is calling it`);
    // Roots are the conversation's (its agent's), asked in flight or not: the app it acts for must be granted the server too.
    const leaseApp = ASKED_WHILE_IDLE.has(method) ? this.deps.leaseApp?.(asker) : undefined;
    if (leaseApp !== undefined && !this.deps.granted(leaseApp, id)) return refuse('NOT_GRANTED', `server "${id}" is not granted to ${leaseApp}, which its conversation acts for`);
    return { ok: true };
  }

  refusedLater(asker: Asker, method: string, code: string, reason: string): void {
    this.deps.refused?.(asker, method, code, reason);
  }
}
