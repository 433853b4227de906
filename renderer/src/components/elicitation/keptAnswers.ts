import type { FormValues } from './elicitationValues';

/**
 * What the user typed into a question's form, and the host's complaints
 * about it, by question, outside the card: the conversation's virtual list
 * unmounts a row that leaves the rendered range, and a page change unmounts
 * the global area's card; mounted again, the card must show what was typed,
 * not the server's defaults.
 */
export interface KeptAnswer {
  values: FormValues;
  /** The host's field errors from the last Submit, by form item. */
  errors?: Record<string, string>;
}

const kept = new Map<string, KeptAnswer>();
/** Questions kept: only unanswered ones need theirs, and few wait at a time. */
const KEPT = 50;

export function keptAnswer(id: string): KeptAnswer | undefined {
  return kept.get(id);
}

export function keepAnswer(id: string, answer: KeptAnswer): void {
  kept.delete(id);
  kept.set(id, answer);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
}

/** Forgets a question once answered: its values are the user's, not to be held longer than needed. */
export function forgetAnswer(id: string): void {
  kept.delete(id);
}
