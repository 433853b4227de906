import { useState } from 'react';
import { api } from '../../api/client';

/** The prefix the shell leaves to the Playground: it shows these confirmations itself (shell/GlobalConfirmations.tsx). */
export const PLAYGROUND_PREFIX = 'playground-';
const STORAGE_KEY = 'chatos.playground.conversation';

function storedNumber(): number {
  const n = Number(localStorage.getItem(STORAGE_KEY));
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/**
 * The Playground's conversation, `playground-<n>`. Servers keep one lease
 * per conversation, so the number survives a reload (the lease does too);
 * a new conversation first ends the old one so its server processes stop.
 */
export function usePlaygroundConversation() {
  const [n, setN] = useState(storedNumber);
  const [ending, setEnding] = useState(false);
  const conversationId = `${PLAYGROUND_PREFIX}${n}`;

  const startNew = async (): Promise<{ released: number }> => {
    setEnding(true);
    try {
      const result = await api.call('conversations.end', { conversationId });
      const next = n + 1;
      localStorage.setItem(STORAGE_KEY, String(next));
      setN(next);
      return result;
    } finally {
      setEnding(false);
    }
  };

  return { conversationId, ending, startNew };
}
