import { useLocation } from 'react-router';
import { QuestionCard } from '../components/questions/QuestionCard';
import { useOpenFrames } from '../components/uiapp/frameRegistry';
import { usePending } from './questions';

/** Conversations the Playground runs carry this prefix; it shows their confirmations itself while it is open. */
const PLAYGROUND_PREFIX = 'playground-';

/**
 * Confirmations nobody else shows: not those of an open UI-app frame (shown
 * above the frame), not the Playground's while the Playground is open, not
 * those of a conversation the Chat page shows (inline, on its card).
 * A tool waiting for the user must never be invisible.
 */
export function GlobalConfirmations() {
  const { pending, dismiss, shownInline } = usePending('toolConfirmation');
  const frames = useOpenFrames();
  const { pathname } = useLocation();
  const onPlayground = pathname.startsWith('/playground');
  const orphans = pending.filter((request) => {
    const conversationId = request.conversationId ?? '';
    if (conversationId && frames.showsConversation(conversationId)) return false;
    if (conversationId && shownInline.has(conversationId)) return false;
    if (onPlayground && conversationId.startsWith(PLAYGROUND_PREFIX)) return false;
    return true;
  });
  if (orphans.length === 0) return null;
  return (
    <div className="global-confirmations" data-testid="global-confirmations">
      {orphans.map((request) => (
        <QuestionCard key={request.id} question={{ kind: 'toolConfirmation', request }} onAnswered={() => dismiss(request.id)} />
      ))}
    </div>
  );
}
