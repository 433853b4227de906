import { createContext } from 'react';

/**
 * Brings the conversation's waiting confirmation into view (a tool card
 * that waits for approval offers it). Given by the list that can scroll to
 * it; absent elsewhere (a sub-agent's run inside a card).
 */
export const ReviewApproval = createContext<(() => void) | undefined>(undefined);
