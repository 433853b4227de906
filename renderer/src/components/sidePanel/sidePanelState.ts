import { useCallback, useSyncExternalStore } from 'react';

/**
 * What the side panel beside a conversation holds (docs/using/side-panel.md):
 * a Canvas instance, a UI app's compact page, or an MCP App's view. One
 * union, switched over exhaustively, so a new kind is a compile error
 * wherever the panel renders or pops out.
 */
export type SidePanelContent =
  | { kind: 'canvas'; instanceId: string }
  | { kind: 'uiApp'; pluginId: string; appId: string }
  /** An MCP App opened "beside the chat" from a tool card: its frame shows the props that card gave it (mcpApps/openedViews.ts). */
  | { kind: 'mcpApp'; serverId: string; toolName: string; resourceUri: string; callId: string };

/**
 * A conversation's panel: closed, or open on one content. Closed keeps what it held, so reopening shows it
 * again; `instance` is the Canvas instance it last showed, so the Canvas opens there again after another app.
 */
export type SidePanelState = ({ open: false; last?: SidePanelContent } | { open: true; content: SidePanelContent }) & { instance?: string };

/** The Canvas as an app (plugins/canvas/plugin.json): its instances open in its compact page. */
export const CANVAS_APP = { pluginId: 'chatos.canvas', appId: 'canvas' } as const;

const STORAGE_KEY = 'chatos.sidePanel';
/** Conversations remembered: the most recently changed ones; older ones open with the panel closed. */
const REMEMBERED = 100;
const CLOSED: SidePanelState = { open: false };

/** The fields of each kind: all non-empty strings. Read back from storage (another version, a hand edit), content is checked against this or dropped. */
const FIELDS = new Map<string, readonly string[]>([
  ['canvas', ['instanceId']],
  ['uiApp', ['pluginId', 'appId']],
  ['mcpApp', ['serverId', 'toolName', 'resourceUri', 'callId']],
]);

function parseContent(value: unknown): SidePanelContent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Record<string, unknown>;
  const fields = FIELDS.get(String(c.kind));
  if (!fields) return undefined;
  const parsed: Record<string, string> = { kind: String(c.kind) };
  for (const field of fields) {
    const text = c[field];
    if (typeof text !== 'string' || text.length === 0 || text.length > 2000) return undefined;
    parsed[field] = text;
  }
  return parsed as SidePanelContent;
}

function parseState(value: unknown): SidePanelState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const s = value as Record<string, unknown>;
  const instance = typeof s.instance === 'string' && s.instance.length <= 200 ? { instance: s.instance } : {};
  if (s.open === true) {
    const content = parseContent(s.content);
    return content ? { open: true, content, ...instance } : undefined;
  }
  const last = parseContent(s.last);
  return last ? { open: false, last, ...instance } : CLOSED;
}

/**
 * The panels of every conversation, by conversation id (a Map: ids are data),
 * remembered in localStorage in the order they last changed, so a
 * conversation opens again as the user left it.
 */
export class SidePanelStore {
  private readonly states = new Map<string, SidePanelState>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | undefined) {
    try {
      const saved: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '[]');
      if (Array.isArray(saved))
        for (const entry of saved.slice(-REMEMBERED)) {
          if (!Array.isArray(entry) || typeof entry[0] !== 'string') continue;
          const state = parseState(entry[1]);
          if (state) this.states.set(entry[0], state);
        }
    } catch {
      // Unreadable: every panel starts closed.
    }
  }

  get(conversationId: string): SidePanelState {
    return this.states.get(conversationId) ?? CLOSED;
  }

  open(conversationId: string, content: SidePanelContent): void {
    const instance = content.kind === 'canvas' ? content.instanceId : this.get(conversationId).instance;
    this.set(conversationId, { open: true, content, ...(instance === undefined ? {} : { instance }) });
  }

  close(conversationId: string): void {
    const current = this.get(conversationId);
    if (current.open) this.set(conversationId, { open: false, last: current.content, ...(current.instance === undefined ? {} : { instance: current.instance }) });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(conversationId: string, state: SidePanelState): void {
    const current = this.states.get(conversationId);
    if (current && JSON.stringify(current) === JSON.stringify(state)) return;
    // Re-inserted: the Map's order is the order of change, the oldest dropped first.
    this.states.delete(conversationId);
    this.states.set(conversationId, state);
    while (this.states.size > REMEMBERED) this.states.delete(this.states.keys().next().value as string);
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify([...this.states]));
    } catch {
      // Storage full or denied: the panel still works for this session.
    }
    for (const listener of [...this.listeners]) listener();
  }
}

export const sidePanels = new SidePanelStore(typeof localStorage === 'undefined' ? undefined : localStorage);

/** One conversation's panel, re-rendering when it changes (also when an event opens it). */
export function useSidePanel(conversationId: string) {
  const state = useSyncExternalStore(sidePanels.subscribe, () => sidePanels.get(conversationId));
  const open = useCallback((content: SidePanelContent) => sidePanels.open(conversationId, content), [conversationId]);
  const close = useCallback(() => sidePanels.close(conversationId), [conversationId]);
  return { state, open, close };
}
