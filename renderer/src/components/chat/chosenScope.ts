import { useState } from 'react';
import type { ApprovalScope } from '../../../../src/shared/confirmation';

/**
 * The scope the user picked on a confirmation card, by group, outside the
 * card: the conversation's virtual list unmounts a row that leaves the
 * rendered range (a scroll, a re-measure while following the bottom), and a
 * card mounted again must not quietly fall back to "once" between the pick
 * and the Approve click.
 */
const chosen = new Map<string, ApprovalScope>();
/** Groups kept: only unanswered cards need theirs, and a conversation rarely shows more than a few. */
const KEPT = 100;

export function useChosenScope(group: string): [ApprovalScope, (scope: ApprovalScope) => void] {
  const [scope, setScope] = useState<ApprovalScope>(() => chosen.get(group) ?? 'once');
  const choose = (next: ApprovalScope) => {
    chosen.delete(group);
    chosen.set(group, next);
    if (chosen.size > KEPT) chosen.delete(chosen.keys().next().value!);
    setScope(next);
  };
  return [scope, choose];
}
