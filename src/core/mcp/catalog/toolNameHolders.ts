/**
 * Who holds each tool name (docs/rules/mcp-yaml.md#tool-names-and-transforms):
 * a name belongs to the server that offered it first, for as long as that
 * server keeps offering it. Another server's tool that would get the name
 * (a re-list, a transform, or `mcp_<server>_<tool>` when one server's name
 * is a prefix of another's: `mail` + `box_send` and `mail_box` + `send`) is
 * refused, never given the name by order; once the holder drops the name,
 * the server that has offered it longest since takes it.
 */

/** A server's claim on a name: which of its tools has it, and since when (a sequence number, not a time). */
export interface NameHolding {
  serverId: string;
  rawName: string;
  since: number;
}

export class ToolNameHolders {
  private sequence = 0;
  /** Name → every server offering it now, the holder first (earliest `since`). */
  private readonly offerers = new Map<string, NameHolding[]>();
  /** Server id → the names it offers now. */
  private readonly offered = new Map<string, Map<string, NameHolding>>();
  private changes = 0;

  /** Bumped whenever some name changes hands (or is first held, or let go): catalogs built before may refuse or offer the wrong tools. */
  get revision(): number {
    return this.changes;
  }

  /** The server holding `name` now, and its tool; undefined when no server offers it. */
  holderOf(name: string): NameHolding | undefined {
    return this.offerers.get(name)?.[0];
  }

  /**
   * `serverId` now offers these names (its tool list named alone, one tool
   * per name): the names it offered before keep their place, new ones queue
   * behind every server already offering them, and the names it no longer
   * offers are let go.
   */
  offer(serverId: string, tools: readonly { name: string; rawName: string }[]): void {
    const before = this.offered.get(serverId) ?? new Map<string, NameHolding>();
    const now = new Map<string, NameHolding>();
    const since = ++this.sequence;
    for (const { name, rawName } of tools) {
      const kept = before.get(name);
      const holding = kept && kept.rawName === rawName ? kept : { serverId, rawName, since: kept?.since ?? since };
      now.set(name, holding);
      if (holding !== kept) this.place(name, holding);
    }
    for (const name of before.keys()) if (!now.has(name)) this.withdraw(name, serverId);
    if (now.size) this.offered.set(serverId, now);
    else this.offered.delete(serverId);
  }

  /** The server is gone: every name it offered is let go. */
  release(serverId: string): void {
    this.offer(serverId, []);
  }

  private place(name: string, holding: NameHolding): void {
    const queue = (this.offerers.get(name) ?? []).filter((other) => other.serverId !== holding.serverId);
    const at = queue.findIndex((other) => other.since > holding.since);
    if (at === -1) queue.push(holding);
    else queue.splice(at, 0, holding);
    this.offerers.set(name, queue);
    if (queue[0] === holding) this.changes++;
  }

  private withdraw(name: string, serverId: string): void {
    const queue = this.offerers.get(name);
    if (!queue) return;
    const rest = queue.filter((other) => other.serverId !== serverId);
    if (queue[0]?.serverId === serverId) this.changes++;
    if (rest.length) this.offerers.set(name, rest);
    else this.offerers.delete(name);
  }
}
