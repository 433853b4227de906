import { describe, expect, it } from 'vitest';
import { CHAT_MIN_WIDTH, LIST_ROOM, listBeside } from '../../renderer/src/components/chat/listRoom.js';

/** Room for the chat (docs/using/side-panel.md#room-for-the-chat): when the conversation list steps aside, and when it comes back. */
describe('the conversation list beside the chat', () => {
  it('steps aside when the chat is narrower than its minimum, and stays while the chat has room', () => {
    expect(listBeside(CHAT_MIN_WIDTH - 1, true)).toBe(false);
    expect(listBeside(CHAT_MIN_WIDTH, true)).toBe(true);
    expect(listBeside(1200, true)).toBe(true);
  });

  it('comes back only when the chat keeps its minimum with the list beside it, so the two never take turns', () => {
    expect(listBeside(CHAT_MIN_WIDTH + LIST_ROOM - 1, false)).toBe(false);
    expect(listBeside(CHAT_MIN_WIDTH + LIST_ROOM, false)).toBe(true);
    // Every width the chat has once the list is back is one the list stays at.
    for (let width = CHAT_MIN_WIDTH + LIST_ROOM; width < CHAT_MIN_WIDTH + LIST_ROOM + 50; width++) expect(listBeside(width - LIST_ROOM, true)).toBe(true);
  });
});
