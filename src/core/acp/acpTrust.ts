import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AcpCommand, Agent } from '../../shared/agents.js';
import { whyChangesCode } from '../process/codeVariables.js';
import { defineTable } from '../store/logicalTable.js';
import type { RecordsStore } from '../store/recordsStore.js';

/** What the person trusted of an agent's program: its fingerprint (the command line and environment), by agent id. */
export const AcpTrustTable = defineTable('acp_program_trust', z.object({ fingerprint: z.string().regex(/^[0-9a-f]{64}$/), trustedAt: z.number() }).strict());

export type AcpTrustCode = 'ACP_UNTRUSTED' | 'ACP_CHANGED';
export type AcpTrustAnswer = { ok: true } | { ok: false; code: AcpTrustCode; message: string; fix: string };

/**
 * Everything of the row that decides what runs: the program, its
 * arguments, whether it may run commands in a terminal, and its whole environment (PATH, NODE_OPTIONS, LD_PRELOAD…
 * decide which code runs as much as the command does), in one canonical
 * form. Environment names are sorted, so the order they were written in
 * does not count; values are hashed, never stored.
 */
export function programFingerprint(program: AcpCommand): string {
  const env = Object.entries(program.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // A terminal is the person's grant as much as the program (docs/using/acp.md#terminals): a row that turned it on
  // is a changed row. Counted only when on, so what was trusted before the level existed keeps its fingerprint.
  const terminal = program.terminal === 'ask' ? [program.terminal] : [];
  return createHash('sha256')
    .update(JSON.stringify([program.command, program.args, env, ...terminal]))
    .digest('hex');
}

/** The variables of the program's environment that decide which code runs, with why: the trust plan warns for each. */
export function codeVariablesOf(program: AcpCommand): { name: string; why: string }[] {
  return Object.keys(program.env ?? {}).flatMap((name) => {
    const why = whyChangesCode(name);
    return why ? [{ name, why }] : [];
  });
}

/**
 * The trust gate of agents of kind `acp` (docs/using/acp.md#trust): an
 * agent's program runs only as the person trusted it. A row's program is
 * data in the admin DB, which more than the person's own faces can write
 * (an older host, another process, a restored file); the person's faces
 * (the agent editor, `chatos agents create|update|trust`) record the
 * fingerprint of what they were shown, and the host asks at every spawn,
 * reading the DB as it is then. A row never trusted, or changed since,
 * starts nothing.
 */
export class AcpTrust {
  constructor(
    private readonly store: RecordsStore,
    private readonly now: () => number,
  ) {}

  /** Trusts the agent's program as it is now. */
  trust(agent: Agent): void {
    if (!agent.acp) return;
    this.store.put(AcpTrustTable, agent.id, { fingerprint: programFingerprint(agent.acp), trustedAt: this.now() });
  }

  forget(agentId: string): void {
    this.store.delete(AcpTrustTable, agentId);
  }

  /** Asked right before the program is spawned: the DB is read as it is now (another process may have changed the row or the trust). */
  check(agent: Agent): AcpTrustAnswer {
    if (!agent.acp) return { ok: true };
    this.store.refresh();
    const trusted = this.store.get(AcpTrustTable, agent.id)?.payload;
    const fix = `review its program and trust it: chatos agents trust ${agent.id} (or save it in the agent editor)`;
    if (!trusted) return { ok: false, code: 'ACP_UNTRUSTED', message: `the program of ACP agent "${agent.id}" (${agent.acp.command}) is not trusted, so it was not started`, fix };
    if (trusted.fingerprint !== programFingerprint(agent.acp))
      return {
        ok: false,
        code: 'ACP_CHANGED',
        message: `the program of ACP agent "${agent.id}" (its command, arguments, environment or terminal level) changed since you trusted it, so it was not started`,
        fix,
      };
    return { ok: true };
  }
}
