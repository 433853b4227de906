import type { KeyboardEvent } from 'react';

/**
 * The composer's own keys besides Enter (docs/using/keyboard.md): Esc
 * stops the answer being written; ↑ in the empty box edits the last
 * message sent. True when the key was used (the caller prevents its default).
 * Both are keys a text box does nothing with in those states, so no typing is taken.
 */
export function composerKey(
  event: KeyboardEvent<HTMLTextAreaElement>,
  state: { running: boolean; empty: boolean; onStop?: (() => void) | undefined; onEditLast?: (() => boolean) | undefined },
): boolean {
  if (event.nativeEvent.isComposing || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
  if (event.key === 'Escape' && state.running && state.onStop) {
    state.onStop();
    return true;
  }
  if (event.key === 'ArrowUp' && state.empty && !state.running && state.onEditLast) return state.onEditLast();
  return false;
}
