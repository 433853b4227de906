import { useEffect, useState, type RefObject } from 'react';

/**
 * Room for the chat (docs/using/side-panel.md#room-for-the-chat): the open
 * conversation keeps at least CHAT_MIN_WIDTH; when the conversation list
 * would leave it less (a narrow window, the side panel open), the list
 * steps aside first (a button shows it over the chat), and the panel never
 * takes the chat's minimum either (styles.css, .side-panel).
 */
export const CHAT_MIN_WIDTH = 420;
/** The list's width and the gap after it (styles.css, .chat-sidebar and .chat-page). */
export const LIST_ROOM = 260 + 16;

/**
 * Whether the list is beside the chat, given the chat's width now and
 * whether the list is there now: it goes when the chat is narrower than its
 * minimum, and comes back only when the chat would keep its minimum with
 * it, so the two never take turns.
 */
export function listBeside(chatWidth: number, besideNow: boolean): boolean {
  return besideNow ? chatWidth >= CHAT_MIN_WIDTH : chatWidth >= CHAT_MIN_WIDTH + LIST_ROOM;
}

/** listBeside, following the width of the chat's column (`main`) as the window or the panel changes. */
export function useListBeside(main: RefObject<HTMLElement | null>): boolean {
  const [beside, setBeside] = useState(true);
  useEffect(() => {
    const element = main.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setBeside((now) => listBeside(entry.contentRect.width, now));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [main]);
  return beside;
}
