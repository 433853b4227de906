import { useLocation } from 'react-router';
import { QuestionCard } from '../components/questions/QuestionCard';
import { PLAYGROUND_PREFIX } from '../components/playground/usePlaygroundConversation';
import { usePending } from './questions';

/**
 * Servers' questions nobody else shows: not those of a conversation the
 * Chat page shows (inline, in its list), not the Playground's while the
 * Playground is open. A question the host could not tie to a conversation
 * shows here too; so do servers' sampling requests. A server waiting for
 * the user must never be invisible.
 */
export function GlobalElicitations() {
  const { pending, dismiss } = usePending('elicitation');
  const samplings = usePending('sampling');
  const { shownInline } = usePending('toolConfirmation');
  const { pathname } = useLocation();
  const onPlayground = pathname.startsWith('/playground');
  const orphan = (request: { conversationId?: string }) => {
    const conversationId = request.conversationId ?? '';
    if (conversationId && shownInline.has(conversationId)) return false;
    if (onPlayground && conversationId.startsWith(PLAYGROUND_PREFIX)) return false;
    return true;
  };
  const orphans = pending.filter(orphan);
  const orphanSamplings = samplings.pending.filter(orphan);
  if (orphans.length === 0 && orphanSamplings.length === 0) return null;
  return (
    <div className="global-confirmations" data-testid="global-elicitations">
      {orphans.map((request) => (
        <QuestionCard key={request.id} question={{ kind: 'elicitation', request }} onAnswered={() => dismiss(request.id)} />
      ))}
      {orphanSamplings.map((request) => (
        <QuestionCard key={request.id} question={{ kind: 'sampling', request }} onAnswered={() => samplings.dismiss(request.id)} />
      ))}
    </div>
  );
}
