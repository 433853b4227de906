/** One shortcut: what the keys sheet lists and the palette shows beside a command. */
export interface Shortcut {
  id: 'palette' | 'sheet' | 'newChat' | 'searchConversations' | 'focusComposer' | 'stop' | 'editLast' | 'regenerate';
  /** The keys, `Mod` being ⌘ on macOS and Ctrl elsewhere. */
  keys: readonly string[];
  /** Where it works (the sheet says so): anywhere, or only in the chat's composer. */
  where: 'anywhere' | 'chat' | 'composer';
}

/**
 * Every shortcut of the window (docs/using/keyboard.md). Chosen as the
 * chat apps people know have them (ChatGPT's ⌘⇧O new chat, ⇧Esc focus the
 * composer, ⌘/ the sheet; every editor's ⌘K palette), avoiding the
 * browser's and Electron's own (⌘R, ⌘⇧R reload, ⌘F find, ⌘W close).
 */
export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'palette', keys: ['Mod', 'K'], where: 'anywhere' },
  { id: 'sheet', keys: ['Mod', '/'], where: 'anywhere' },
  { id: 'newChat', keys: ['Mod', 'Shift', 'O'], where: 'anywhere' },
  { id: 'searchConversations', keys: ['Mod', 'Shift', 'F'], where: 'anywhere' },
  { id: 'focusComposer', keys: ['Shift', 'Esc'], where: 'chat' },
  { id: 'regenerate', keys: ['Mod', 'Shift', 'G'], where: 'chat' },
  { id: 'stop', keys: ['Esc'], where: 'chat' },
  { id: 'editLast', keys: ['↑'], where: 'composer' },
];

const MAC_SYMBOLS: Readonly<Record<string, string>> = { Mod: '⌘', Shift: '⇧', Alt: '⌥', Esc: 'Esc' };

/** A key as the platform writes it: ⌘ ⇧ on a Mac, Ctrl Shift elsewhere. */
export function keyLabel(key: string, mac: boolean): string {
  if (mac) return Object.hasOwn(MAC_SYMBOLS, key) ? MAC_SYMBOLS[key]! : key;
  return key === 'Mod' ? 'Ctrl' : key;
}
