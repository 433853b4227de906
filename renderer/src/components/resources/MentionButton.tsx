import { Button, Tooltip } from 'antd';
import { lazy, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import '../../i18n/load/resources';
import { PartSuspense } from '../../shell/lazyPart';

// The picker (a modal, lists, a form with completions) loads when it first opens: the chat page does not pay for it up front.
const ResourceMention = lazy(() => import('./ResourceMention').then((module) => ({ default: module.ResourceMention })));

/** Whose resources an @-mention offers: the conversation's agent, and the conversation (none yet for a chat not started). */
interface MentionTarget {
  agentId: string;
  conversationId: string;
}

/** The target of a composer's @-mention, the same object while its agent and conversation are. */
export function useMentionTarget(agentId: string | undefined, conversationId: string | undefined): MentionTarget | undefined {
  return useMemo(() => (agentId && conversationId ? { agentId, conversationId } : undefined), [agentId, conversationId]);
}

/** Whether `next` is `previous` with an @ typed at its end as a word's start (the picker opens then). */
export function mentionTyped(previous: string, next: string): boolean {
  return next.length === previous.length + 1 && next.startsWith(previous) && /(^|\s)@$/.test(next);
}

/** The composer's @ button and the picker it opens; a pick attaches the resource to the message. */
export function MentionButton(props: { target: MentionTarget; open: boolean; disabled?: boolean | undefined; onOpen(open: boolean): void; onPick(serverId: string, uri: string): void }) {
  const { target, open, disabled, onOpen, onPick } = props;
  const { t } = useTranslation();
  const asker = useMemo(() => ({ agentId: target.agentId, flow: 'main' as const, conversationId: target.conversationId }), [target.agentId, target.conversationId]);
  return (
    <>
      <Tooltip title={t('resources.mention.button')}>
        <Button type="text" disabled={disabled} onClick={() => onOpen(true)} aria-label={t('resources.mention.button')} data-testid="chat-mention">
          @
        </Button>
      </Tooltip>
      {open && (
        <PartSuspense fallback={null}>
          <ResourceMention asker={asker} open={open} onClose={() => onOpen(false)} onPick={onPick} />
        </PartSuspense>
      )}
    </>
  );
}
