import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ParentEvent } from './bridgeProtocol';

/** A mounted UI-app frame, bound by the shell to its app (never by what the frame says). */
export interface RegisteredFrame {
  pluginId: string;
  appId: string;
  conversationId: string;
  deliver(event: ParentEvent): void;
}

/**
 * The frames open in this window: lets one frame's `events.emit` reach the
 * other frames of the same app, and tells the global confirmation area which
 * conversations a frame already shows.
 */
export class FrameRegistry {
  private readonly frames = new Set<RegisteredFrame>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  add(frame: RegisteredFrame): () => void {
    this.frames.add(frame);
    this.changed();
    return () => {
      if (this.frames.delete(frame)) this.changed();
    };
  }

  siblingsOf(frame: RegisteredFrame): RegisteredFrame[] {
    return [...this.frames].filter((other) => other !== frame && other.pluginId === frame.pluginId && other.appId === frame.appId);
  }

  showsConversation(conversationId: string): boolean {
    return [...this.frames].some((frame) => frame.conversationId === conversationId);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  private changed(): void {
    this.version += 1;
    for (const listener of [...this.listeners]) listener();
  }
}

export const FrameRegistryContext = createContext<FrameRegistry | null>(null);

export function useFrameRegistry(): FrameRegistry {
  const registry = useContext(FrameRegistryContext);
  if (!registry) throw new Error('useFrameRegistry must be used inside <FrameRegistryContext.Provider>');
  return registry;
}

/** Re-renders when frames open or close; returns the registry to query. */
export function useOpenFrames(): FrameRegistry {
  const registry = useFrameRegistry();
  useSyncExternalStore(registry.subscribe, registry.getVersion);
  return registry;
}

/** FNV-1a (32 bit) as 8 hex digits: short, stable, and unambiguous however the ids are spelled (they are joined by NUL). */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * A fresh conversation id for one mount of a frame: `ui-<hash of the app>-<random>`.
 * Per mount, so "approve for this conversation" and the app's server lease end
 * when the frame closes (the frame ends it); the hash only groups ids by app,
 * the frame registry is what maps an id to its frame.
 */
export function newFrameConversationId(pluginId: string, appId: string): string {
  const random = crypto.getRandomValues(new Uint8Array(8));
  const suffix = Array.from(random, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `ui-${shortHash(`${pluginId}\0${appId}`)}-${suffix}`;
}
