import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { WorkspaceRoot } from '../../shared/workspaceRoots.js';
import { SHARED_LEASE } from '../mcp/connection/connectionManager.js';
import { WorkspaceRootsError } from './workspaceRootsError.js';
import { parseRoots } from './rootFolders.js';

/** What the roots of a lease come from: an agent's own, and its app (whose grants the policy checks). */
export interface RootsAgent {
  readonly roots?: readonly string[];
  readonly hostAppId: string;
}

/** A stored conversation as far as its roots go: its agent, and its own roots when it has some. */
export interface RootsConversation {
  readonly agentId: string;
  readonly roots?: readonly string[];
}

/** Where stored conversations are (the chat), bound once the chat exists. */
export interface RootsConversations {
  row(conversationId: string): RootsConversation | undefined;
  /** Saves a stored conversation's own roots (null: back to its agent's). */
  save(conversationId: string, roots: string[] | null): void;
}

/** One running server instance: its server, the conversation whose it is, and how to tell it the roots changed. */
export interface RootsListener {
  readonly serverId: string;
  readonly lease: string;
  rootsChanged(): Promise<void>;
}

export interface WorkspaceRootsDeps {
  agent(agentId: string): RootsAgent | undefined;
  /** The running server instances now. */
  running(): readonly RootsListener[];
  onError?(error: unknown): void;
}

/** Leases remembered without a stored conversation (a Playground's), and answers remembered; past this the oldest go. */
const MAX_REMEMBERED = 2_000;

const keyOf = (serverId: string, lease: string) => `${serverId}\u0000${lease}`;

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= MAX_REMEMBERED) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** A folder's name for a server: its last part (the path itself for a drive or `/`). */
const nameOf = (folder: string) => path.basename(folder) || folder;

/**
 * The workspace roots of each conversation (docs/using/agents.md#workspace-roots),
 * as `roots/list` answers them. A conversation's instance gets the
 * conversation's own roots, else its agent's; a stored conversation keeps
 * its own in the chat, another (the Playground's) has them here while the
 * host runs, with the agent it was last used with. A shared instance (`*`,
 * a truly stateless server) serves every conversation at once: it is told
 * no roots, so no conversation's folders reach another's.
 *
 * What each instance was last answered is kept: after any change (an
 * agent saved, a conversation's roots set) every instance whose roots now
 * differ is sent `notifications/roots/list_changed`, and asks again.
 */
export class WorkspaceRoots {
  private conversations: RootsConversations | undefined;
  /** Leases with no stored conversation: the agent last used in each, and roots set for it. */
  private readonly leaseAgents = new Map<string, string>();
  private readonly leaseRoots = new Map<string, readonly string[]>();
  /** Per instance (server, lease): the paths it was last answered, as JSON. */
  private readonly answered = new Map<string, string>();

  constructor(private readonly deps: WorkspaceRootsDeps) {}

  /** The chat's conversations (bound by the chat module once it exists). */
  useConversations(conversations: RootsConversations): void {
    this.conversations = conversations;
  }

  /** A lease with no stored conversation is used by this agent (a Playground's calls): its roots are the agent's unless set. */
  noteAgent(lease: string, agentId: string): void {
    if (lease === SHARED_LEASE || this.conversations?.row(lease)) return;
    if (this.leaseAgents.get(lease) === agentId) return;
    remember(this.leaseAgents, lease, agentId);
    this.refresh();
  }

  private agentOf(lease: string): { agentId?: string; own?: readonly string[] } {
    const row = this.conversations?.row(lease);
    if (row) return { agentId: row.agentId, ...(row.roots ? { own: row.roots } : {}) };
    const own = this.leaseRoots.get(lease);
    const agentId = this.leaseAgents.get(lease);
    return { ...(agentId !== undefined ? { agentId } : {}), ...(own ? { own } : {}) };
  }

  /** The folders of this lease's conversation: its own, else its agent's, else none (always none for a shared instance). */
  paths(lease: string | undefined): readonly string[] {
    if (lease === undefined || lease === SHARED_LEASE) return [];
    const { agentId, own } = this.agentOf(lease);
    if (own) return own;
    return (agentId !== undefined ? this.deps.agent(agentId)?.roots : undefined) ?? [];
  }

  /** A conversation's roots now, and whether they are its own (else its agent's); `agentId`: the agent it is used with, when the chat does not store it. */
  view(conversationId: string, agentId?: string): { roots: string[]; own: boolean } {
    if (agentId !== undefined) this.noteAgent(conversationId, agentId);
    return { roots: [...this.paths(conversationId)], own: this.agentOf(conversationId).own !== undefined };
  }

  /** The app the lease's conversation acts for (its agent's), when known: the request policy checks its grant. */
  appOf(lease: string | undefined): string | undefined {
    if (lease === undefined || lease === SHARED_LEASE) return undefined;
    const { agentId } = this.agentOf(lease);
    return agentId !== undefined ? this.deps.agent(agentId)?.hostAppId : undefined;
  }

  /** `roots/list` for one instance: its lease's folders as file URIs with names, remembered for list_changed. */
  answer(serverId: string, lease: string | undefined): WorkspaceRoot[] {
    const folders = this.paths(lease);
    if (lease !== undefined) remember(this.answered, keyOf(serverId, lease), JSON.stringify(folders));
    return folders.map((folder) => ({ uri: pathToFileURL(folder).href, name: nameOf(folder) }));
  }

  /**
   * Sets a conversation's own roots (null: its agent's again), checked in
   * form and on disk (a WorkspaceRootsError names each bad folder). A stored
   * conversation keeps them; another lease (the Playground's) has them
   * while the host runs. Returns the roots as saved.
   */
  set(conversationId: string, input: unknown): string[] | null {
    let roots: string[] | null = null;
    if (input !== null) {
      const parsed = parseRoots(input);
      if (!parsed.ok) throw new WorkspaceRootsError(`the roots are not valid: ${parsed.fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`, parsed.fields);
      roots = parsed.roots;
    }
    if (this.conversations?.row(conversationId)) this.conversations.save(conversationId, roots);
    else if (roots === null) this.leaseRoots.delete(conversationId);
    else remember(this.leaseRoots, conversationId, roots);
    this.refresh();
    return roots;
  }

  /** An instance ended: what it was answered goes. */
  forget(serverId: string, lease: string): void {
    this.answered.delete(keyOf(serverId, lease));
  }

  /**
   * Something roots come from changed (an agent saved, a conversation's
   * roots set): every running instance that was answered other folders
   * than its lease has now is told, once until it asks again.
   */
  refresh(): void {
    for (const instance of this.deps.running()) {
      const key = keyOf(instance.serverId, instance.lease);
      const last = this.answered.get(key);
      if (last === undefined || last === JSON.stringify(this.paths(instance.lease))) continue;
      this.answered.delete(key);
      instance.rootsChanged().catch((error: unknown) => this.deps.onError?.(error));
    }
  }
}
