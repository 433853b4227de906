import { ApiOutlined, BranchesOutlined, LoadingOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Space, Typography } from 'antd';
import { lazy, useContext, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolCallEvent, ToolCallRecord, ToolCallStatus, ToolMessage } from '../../../../src/shared/chat';
import type { ResourceRead } from '../resources/resourceAsker';
import { api, errorLine } from '../../api/client';
import { ownValue } from '../../api/ownValue';
import { useCountdown } from '../confirmationCountdown';
import { QuestionCard } from '../questions/QuestionCard';
import { useQuestionOfCall } from '../../shell/questions';
import { ArgsList } from './ArgsList';
import { CardConfirmations } from './cardConfirmations';
import { Disclosure } from './Disclosure';
import { useKeptOpen, useRowWords } from './rowContext';
import '../../i18n/load/calls';
import '../../i18n/load/chat';
import { PartSuspense } from '../../shell/lazyPart';

// Only a remote server that needs signing in shows it: loaded then, so the Chat page stays within its JS budget.
// A call's progress bar (antd's Progress) only while a call runs.
const CallProgress = lazy(() => import('../calls/CallProgress').then((m) => ({ default: m.CallProgress })));
const SignInCard = lazy(() => import('./SignInCard').then((m) => ({ default: m.SignInCard })));
// A resource link a server returned: the item that opens it loads with it.
const ResultResource = lazy(() => import('../resources/ResultResource').then((m) => ({ default: m.ResultResourceItem })));

/** `asking`: the call runs, and waits on the person (a server's question or sampling request shown on its card). */
export type CallStatus = ToolCallStatus | 'running' | 'awaiting' | 'asking' | 'pending';

/** The tone of a call's status tag (`chat-tag-<tone>` in styles.css, antd's tag colours). */
const STATUS_TONE: Record<CallStatus, string> = {
  ok: 'success',
  error: 'error',
  declined: 'warning',
  refused: 'error',
  cancelled: 'default',
  running: 'processing',
  awaiting: 'warning',
  asking: 'warning',
  pending: 'default',
};

/** How a call stands: its stored result wins; else its live event (waiting for the user's approval is not running); else it waits (or never ran, when the turn is over). */
export function statusOf(result: ToolMessage | undefined, event: ToolCallEvent | undefined): CallStatus {
  if (result) return result.status;
  if (event?.phase === 'finished') return event.status ?? 'ok';
  if (event?.phase === 'awaiting') return 'awaiting';
  if (event?.phase === 'started' || event?.phase === 'progress') return 'running';
  return 'pending';
}

/** The text of a call's result: the stored one, or the live summary until it is stored. */
function ResultText({ result, event, openResource }: { result?: ToolMessage; event?: ToolCallEvent; openResource?: (serverId: string, uri: string) => Promise<ResourceRead> }) {
  const { t } = useRowWords();
  // A declined call never ran: the text the model was given ("The user declined…") is said in words instead.
  if ((result?.status ?? event?.status) === 'declined') {
    return (
      <div className="tool-result" data-testid="tool-call-result">
        <Typography.Text type="secondary">{t('calls.notRun.chat')}</Typography.Text>
      </div>
    );
  }
  if (result) {
    return (
      <div className="tool-result" data-testid="tool-call-result">
        {result.content.map((item, i) => {
          if (item.type === 'text')
            return (
              <pre key={i} className="tool-result-text">
                {item.text}
              </pre>
            );
          if (item.type === 'note' && item.link && result.serverId && openResource) {
            const { serverId } = result;
            return (
              <PartSuspense key={i} fallback={<Typography.Text type="secondary">{item.text}</Typography.Text>}>
                <ResultResource json={{ type: 'resource_link', ...item.link }} open={(uri) => openResource(serverId, uri)} />
              </PartSuspense>
            );
          }
          if (item.type === 'note')
            return (
              <Typography.Text key={i} type="secondary">
                {item.text}
              </Typography.Text>
            );
          // The gateway's lease reminder speaks to the model ("call mcp_release"), not to people.
          if (item.type === 'reminder') return null;
          return (
            <Typography.Text key={i} type="secondary">
              {t('chat.tool.image', { mimeType: item.mimeType, path: item.artifact })}
            </Typography.Text>
          );
        })}
      </div>
    );
  }
  if (event?.phase !== 'finished' || !event.summary) return null;
  return (
    <div className="tool-result" data-testid="tool-call-result">
      <pre className="tool-result-text">{event.summary}</pre>
    </div>
  );
}

/** The images a call returned, shown under it without opening it. */
function ResultImages({ result, event, artifactUrls }: { result?: ToolMessage; event?: ToolCallEvent; artifactUrls: Readonly<Record<string, string>> }) {
  // A result stored while the page was open has no url in the view loaded before it: the live event's urls stand in.
  const stored = (result?.content ?? []).flatMap((item) => (item.type === 'image' ? [{ url: ownValue(artifactUrls, item.artifact), alt: item.artifact }] : []));
  const live = (event?.artifacts ?? []).map((artifact) => ({ url: artifact.url, alt: artifact.mimeType }));
  const urls = stored.length && stored.every((u) => u.url !== undefined) ? stored : live;
  const shown = urls.filter((u): u is { url: string; alt: string } => u.url !== undefined);
  if (!shown.length) return null;
  return (
    <div className="tool-result-images">
      {shown.map((image) => (
        <a key={image.url} href={api.resolveUrl(image.url)} target="_blank" rel="noreferrer">
          <img className="tool-result-image" src={api.resolveUrl(image.url)} alt={image.alt} data-testid="tool-call-image" />
        </a>
      ))}
    </div>
  );
}

/**
 * One tool call of an answer: the tool, its status and how long it took;
 * opened, its arguments as a readable list, its result (text and images),
 * and for a sub-agent, that agent's own run (collapsed until opened).
 */
export function ToolCallCard(props: {
  call: ToolCallRecord;
  /** The conversation the call is in: a server's question shows here only when it is of this conversation's call. */
  conversationId: string | undefined;
  result?: ToolMessage;
  event?: ToolCallEvent;
  artifactUrls: Readonly<Record<string, string>>;
  subAgentRun?: ReactNode;
  /** The MCP App view the result is shown in (docs/using/mcp-apps.md), under the card. */
  appView?: ReactNode;
  onReview?: () => void;
  /** Reads a resource a server's result links to, as the conversation's agent (absent: links stay notes). */
  openResource?: (serverId: string, uri: string) => Promise<ResourceRead>;
  /** Where the list keeps whether the card is open (the message's id and the call's). */
  openKey: string;
}) {
  const { call, conversationId, result, event, artifactUrls, subAgentRun, appView, onReview, openResource, openKey } = props;
  const { t, word } = useRowWords();
  const tied = useQuestionOfCall(conversationId, call.id);
  const onCards = useContext(CardConfirmations);
  // The question this card shows: a confirmation the pane put here, or a server's question or sampling request.
  const asked = tied && (tied.question.kind !== 'toolConfirmation' || onCards.has(tied.question.id)) ? tied : undefined;
  const ran = statusOf(result, event);
  // A call a question waits on waits for the person, whatever the kind (not yet ended: awaiting, running, or with no
  // live event yet after the page was loaded again): its approval before it runs, a server's question while it runs.
  const unended = ran === 'awaiting' || ran === 'running' || ran === 'pending';
  const status: CallStatus = asked && unended ? (asked.question.kind === 'toolConfirmation' ? 'awaiting' : 'asking') : ran;
  // A call that never ran (declined, or no one answered) has no run time to show.
  const durationMs = status === 'declined' ? undefined : (result?.durationMs ?? event?.durationMs);
  const isSubAgent = subAgentRun !== undefined;
  const [open, setOpen] = useKeptOpen(openKey);
  // Plain elements, not antd's Space, Typography and Tag: every answer with tools has a card, mounted again each time it scrolls into view.
  const header = (
    <span className="tool-call-head">
      {status === 'running' ? <LoadingOutlined /> : status === 'awaiting' || status === 'asking' ? <SafetyCertificateOutlined /> : isSubAgent ? <BranchesOutlined /> : <ApiOutlined />}
      <code className="tool-call-name">{call.name}</code>
      <span className={`chat-tag chat-tag-${STATUS_TONE[status]}`} data-testid="tool-call-status">
        {word(`chat.tool.status.${status}`)}
      </span>
      {durationMs !== undefined && (
        <span className="tool-call-duration" data-testid="tool-call-duration">
          {t('chat.tool.duration', { ms: Math.round(durationMs) })}
        </span>
      )}
    </span>
  );
  return (
    <div className="tool-call" data-testid={`tool-call-${call.id}`} data-status={status} data-tool={call.name}>
      <Disclosure open={open} onToggle={setOpen} label={header} toggleTestId="tool-call-toggle">
        <div className="tool-call-body">
          <Typography.Text type="secondary" className="tool-call-label">
            {word('chat.tool.arguments')}
          </Typography.Text>
          <ArgsList args={call.argumentsText} testId="tool-call-args" />
          {(result || event?.phase === 'finished') && (
            <>
              <Typography.Text type="secondary" className="tool-call-label">
                {word('chat.tool.result')}
              </Typography.Text>
              <ResultText result={result} event={event} {...(openResource ? { openResource } : {})} />
            </>
          )}
        </div>
      </Disclosure>
      {status === 'running' && event && <RunningCall conversationId={event.conversationId} callId={call.id} progress={event.progress} />}
      {status === 'awaiting' && !asked && event?.confirmation && <AwaitingApproval confirmation={event.confirmation} onReview={onReview} />}
      {(status === 'asking' || status === 'awaiting') && asked && (
        <div className="tool-call-question" data-testid="tool-call-question">
          <QuestionCard question={asked.question} onAnswered={() => asked.dismiss(asked.question.id)} />
        </div>
      )}
      <ResultImages result={result} event={event} artifactUrls={artifactUrls} />
      {(result?.signIn ?? event?.signIn) && (
        <PartSuspense fallback={null}>
          <SignInCard ask={(result?.signIn ?? event?.signIn)!} />
        </PartSuspense>
      )}
      {subAgentRun}
      {appView}
    </div>
  );
}

/** A call waiting for the user's approval: how long until it is declined unanswered, and a way to the question. */
function AwaitingApproval({ confirmation, onReview }: { confirmation: NonNullable<ToolCallEvent['confirmation']>; onReview?: () => void }) {
  const { t } = useTranslation();
  const { seconds } = useCountdown(confirmation);
  return (
    <Space className="tool-call-awaiting" size="small" data-testid="tool-call-awaiting">
      <Typography.Text type={seconds <= 10 ? 'danger' : 'secondary'} data-testid="tool-call-countdown">
        {t('chat.tool.awaitingLeft', { seconds })}
      </Typography.Text>
      {onReview && (
        <Button size="small" type="link" onClick={onReview} data-testid="tool-call-review">
          {t('chat.tool.toApproval')}
        </Button>
      )}
    </Space>
  );
}

/** A call that runs now: the server's latest progress, and Cancel for this call alone (the turn goes on). */
function RunningCall(props: { conversationId: string; callId: string; progress: ToolCallEvent['progress'] }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [cancelling, setCancelling] = useState(false);
  const cancel = async () => {
    setCancelling(true);
    try {
      const { cancelled } = await api.call('chat.cancelCall', { conversationId: props.conversationId, callId: props.callId });
      if (!cancelled) {
        setCancelling(false);
        void message.info(t('calls.cancelFailed'));
      }
    } catch (e) {
      setCancelling(false);
      void message.error(errorLine(e));
    }
  };
  return (
    <div className="tool-call-running">
      <PartSuspense fallback={<LoadingOutlined />}>
        <CallProgress progress={props.progress} onCancel={() => void cancel()} cancelling={cancelling} />
      </PartSuspense>
    </div>
  );
}
