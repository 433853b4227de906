import { hasModifier } from './platform';
import type { Shortcut } from './shortcuts';

// Apart from the list (shortcuts.ts): the window's first screen carries only this, the sheet and the palette bring the list.
/** Which shortcut of the window a key press is, if any (Esc and ↑ are the composer's and the page's own, so not here). */
export function shortcutOf(event: KeyboardEvent, mac: boolean): Shortcut['id'] | undefined {
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (event.altKey) return undefined;
  if (hasModifier(event, mac)) {
    if (!event.shiftKey && key === 'k') return 'palette';
    if (!event.shiftKey && key === '/') return 'sheet';
    if (event.shiftKey && key === 'o') return 'newChat';
    if (event.shiftKey && key === 'f') return 'searchConversations';
    if (event.shiftKey && key === 'g') return 'regenerate';
    return undefined;
  }
  if (event.ctrlKey || event.metaKey) return undefined;
  if (event.shiftKey && key === 'Escape') return 'focusComposer';
  if (!event.shiftKey && key === 'Escape') return 'stop';
  // `?` (Shift+/ on most layouts) opens the sheet where no text is typed.
  if (key === '?') return 'sheet';
  return undefined;
}
