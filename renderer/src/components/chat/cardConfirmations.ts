import { createContext } from 'react';

/**
 * The confirmations the conversation shows on their calls' cards (by question id): the pane decides where each one
 * goes, once, so a card inside a sub-agent's run (folded away by default) leaves its own to the group card above.
 */
export const CardConfirmations = createContext<ReadonlySet<string>>(new Set());
