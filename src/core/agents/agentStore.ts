import { AgentInputSchema, AgentSchema, type Agent, type AgentInput } from '../../shared/agents.js';
import type { AppContribution } from '../../shared/appContribution.js';
import { exposureViolations } from './agentExposure.js';
import { normalizeName } from '../naming/names.js';
import { defineTable } from '../store/logicalTable.js';
import type { RecordsStore } from '../store/recordsStore.js';
import { checkRootFolders } from '../workspaceRoots/rootFolders.js';
import { AgentError } from './agentError.js';

export const AgentsTable = defineTable('agents', AgentSchema);

function parseInput(input: unknown): AgentInput & { name: string } {
  const parsed = AgentInputSchema.safeParse(input);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message }));
    throw new AgentError('AGENT_INVALID', `the agent is not valid: ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`, fields);
  }
  // An ACP agent is its program: without one there is nothing to start (docs/using/acp.md).
  if (parsed.data.kind === 'acp' && !parsed.data.acp) {
    const fields = [{ path: 'acp.command', message: 'an agent of kind "acp" must name the ACP agent program to run' }];
    throw new AgentError('AGENT_INVALID', `the agent is not valid: acp.command: ${fields[0]!.message}`, fields);
  }
  return parsed.data;
}

/** The installed apps, for the exposure check (the plugin catalog). */
export type AppLookup = (pluginId: string, appId: string) => AppContribution | undefined;

/**
 * Agents in the host's admin DB (`uiApps`, docs/rules/agents.md#what-an-agent-stores). Ids stay as
 * written; ids that vanish from the registry are reported by the resolver,
 * never dropped here. An id outside what its app exposes (docs/rules/names-and-exposure.md#exposure;
 * an app not installed exposes nothing) is refused at
 * create and update, whichever face asks.
 */
export class AgentStore {
  private readonly savedListeners = new Set<(agent: Agent) => void>();

  constructor(
    private readonly store: RecordsStore,
    private readonly appOf: AppLookup = () => undefined,
    /** What goes with an agent (its "always allow" answers), so a new agent given the same id inherits none of it. */
    private readonly onDeleted: (id: string) => void = () => {},
  ) {}

  /** Refuses selections outside the apps' exposure, one field error per id (at its path, as the schema's errors are). */
  private checkExposure(agent: Agent): void {
    const violations = exposureViolations(agent.uiApps, this.appOf);
    if (violations.length === 0) return;
    const fields = violations.map((v) => ({ path: v.at.map(String).join('.'), message: `${v.message}; ${v.hint}` }));
    throw new AgentError('AGENT_INVALID', `the agent is not valid: ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`, fields);
  }

  /** Every agent created or updated, whichever face saved it (its workspace roots may have changed). */
  onSaved(listener: (agent: Agent) => void): () => void {
    this.savedListeners.add(listener);
    return () => this.savedListeners.delete(listener);
  }

  private saved(agent: Agent): Agent {
    for (const listener of this.savedListeners) listener(agent);
    return agent;
  }

  /** Its roots must be folders that exist (docs/using/agents.md#workspace-roots): one field error per folder, else the roots normalized. */
  private checkRoots(agent: Agent): Agent {
    const { roots, problems } = checkRootFolders(agent.roots);
    if (problems.length === 0) return { ...agent, roots };
    const fields = problems.map((p) => ({ path: `roots.${p.index}`, message: p.message }));
    throw new AgentError('AGENT_INVALID', `the agent is not valid: ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`, fields);
  }

  list(): Agent[] {
    this.store.refresh();
    return this.store.list(AgentsTable).map((r) => r.payload);
  }

  get(id: string): Agent | undefined {
    this.store.refresh();
    return this.store.get(AgentsTable, id)?.payload;
  }

  /** Creates an agent; its id is the given one, else derived from its name (made unique). */
  create(input: unknown): Agent {
    const data = parseInput(input);
    this.store.refresh();
    let id = data.id;
    if (id !== undefined) {
      if (this.store.has(AgentsTable, id)) throw new AgentError('AGENT_EXISTS', `an agent with id "${id}" already exists`);
    } else {
      const base =
        normalizeName(data.name)
          .replace(/^[^a-z0-9]+/, '')
          .slice(0, 48) || 'agent';
      id = base;
      for (let n = 2; this.store.has(AgentsTable, id); n++) id = `${base}-${n}`;
    }
    const agent = this.checkRoots(AgentSchema.parse({ ...data, id }));
    this.checkExposure(agent);
    this.store.put(AgentsTable, id, agent);
    return this.saved(agent);
  }

  /** Replaces an agent's fields with `input` (its id cannot change). */
  update(id: string, input: unknown): Agent {
    const current = this.get(id);
    if (!current) throw new AgentError('AGENT_NOT_FOUND', `no agent "${id}"`);
    const data = parseInput({ ...(input as object), id });
    // Who created it stays, whatever face edits it (the agent editor does not send it).
    const agent = this.checkRoots(AgentSchema.parse({ ...data, id, ...(current.ownerApp && data.ownerApp === undefined ? { ownerApp: current.ownerApp } : {}) }));
    this.checkExposure(agent);
    this.store.put(AgentsTable, id, agent);
    return this.saved(agent);
  }

  /**
   * Takes a server the user removed out of every agent that selected it, so no agent keeps a pick of something that
   * is gone for good (what merely went missing stays picked, reported by the resolver). Returns the agents changed.
   */
  forgetServer(serverId: string): string[] {
    this.store.refresh();
    const changed: Agent[] = [];
    this.store.transaction(() => {
      for (const { id, payload } of this.store.list(AgentsTable)) {
        if (!payload.uiApps.some((app) => app.mcpServerIds.includes(serverId))) continue;
        const agent = { ...payload, uiApps: payload.uiApps.map((app) => ({ ...app, mcpServerIds: app.mcpServerIds.filter((s) => s !== serverId) })) };
        this.store.put(AgentsTable, id, agent);
        changed.push(agent);
      }
    });
    for (const agent of changed) this.saved(agent);
    return changed.map((agent) => agent.id);
  }

  delete(id: string): boolean {
    this.store.refresh();
    const deleted = this.store.delete(AgentsTable, id);
    if (deleted) this.onDeleted(id);
    return deleted;
  }
}
