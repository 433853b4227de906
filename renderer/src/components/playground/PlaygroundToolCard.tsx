import { PlayCircleOutlined } from '@ant-design/icons';
import { QuestionCard } from '../questions/QuestionCard';
import { Alert, App as AntApp, Button, Card, Descriptions, Space, Typography } from 'antd';
import { lazy, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolOutcome, ToolView } from '../../../../src/shared/hostApi';
import { type ApiError, api, errorLine, toApiError } from '../../api/client';
import { useHostEvent } from '../../api/hooks';
import { ApiErrorAlert } from '../../shell/ApiErrorAlert';
import { usePending } from '../../shell/questions';
import { CallProgress, newCallId, type ProgressReport } from '../calls/CallProgress';
import { resultResource } from '../resources/ResultResource';
import { PermissionTag } from '../servers/permission';
import { ToolResultView } from '../ToolResultView';
import { ToolArgsEditor } from './ToolArgsEditor';
import { outcomeForView } from '../mcpApps/viewToolResult';
import '../../i18n/load/calls';
import '../../i18n/load/playground';
import { PartSuspense } from '../../shell/lazyPart';

// The MCP App bridge loads with the first view a result shows (docs/using/mcp-apps.md).
const McpAppFrame = lazy(() => import('../mcpApps/McpAppFrame').then((module) => ({ default: module.McpAppFrame })));

type Flow = 'main' | 'sub';

/**
 * The Playground's picked tool: what it is, its arguments (a form from its
 * schema, or raw JSON), Call and its progress, and the result. A
 * confirm-level tool asks right under the Call button
 * (docs/rules/confirmation.md#confirmation), not in a dialog; so do a
 * server's questions and sampling requests during the call. Its own chunk:
 * the page shows it once a tool is picked (pages/PlaygroundPage.tsx).
 */
export default function PlaygroundToolCard({ agentId, flow, conversationId, tool }: { agentId: string; flow: Flow; conversationId: string; tool: ToolView }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const { pending, dismiss } = usePending('toolConfirmation');
  const mine = pending.filter((request) => request.conversationId === conversationId);
  const questions = usePending('elicitation');
  const myQuestions = questions.pending.filter((request) => request.conversationId === conversationId);
  const samplings = usePending('sampling');
  const mySamplings = samplings.pending.filter((request) => request.conversationId === conversationId);

  const readArgsRef = useRef<(() => Record<string, unknown> | undefined) | null>(null);
  const [calling, setCalling] = useState(false);
  const [outcome, setOutcome] = useState<ToolOutcome | undefined>();
  // What the shown result was called with: an MCP App view is told it.
  const [calledWith, setCalledWith] = useState<Record<string, unknown> | undefined>();
  const [callError, setCallError] = useState<ApiError | undefined>();

  // The running call's own id (for its progress events and Cancel), its latest progress, and whether it was cancelled.
  const [callId, setCallId] = useState<string | undefined>();
  const [progress, setProgress] = useState<ProgressReport | undefined>();
  const [cancelling, setCancelling] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  // A result belongs to the flow and conversation it came from (the card is the tool's: a new tool is a new card).
  useEffect(() => {
    setOutcome(undefined);
    setCallError(undefined);
    setCancelled(false);
  }, [flow, conversationId, agentId]);

  useHostEvent('tool.progress', (event) => {
    if (event.callId === callId)
      setProgress({ progress: event.progress, ...(event.total !== undefined ? { total: event.total } : {}), ...(event.message !== undefined ? { message: event.message } : {}) });
  });

  const call = async () => {
    const args = readArgsRef.current?.();
    if (!args) return;
    const id = newCallId();
    setCallId(id);
    setProgress(undefined);
    setCancelled(false);
    setCalling(true);
    setOutcome(undefined);
    setCallError(undefined);
    setCalledWith(args);
    try {
      setOutcome(await api.call('tools.call', { agentId, flow, conversationId, tool: tool.name, args, callId: id }));
    } catch (e) {
      const error = toApiError(e);
      // A call the user cancelled is not an error to show: the notice says what happened.
      if (error.code === 'CALL_ABORTED') setCancelled(true);
      else setCallError(error);
    } finally {
      setCalling(false);
      setCallId(undefined);
      setCancelling(false);
    }
  };

  const cancel = async () => {
    if (!callId) return;
    setCancelling(true);
    try {
      const { cancelled: done } = await api.call('tools.cancel', { callId });
      if (!done) void message.info(t('calls.cancelFailed'));
    } catch (e) {
      setCancelling(false);
      void message.error(errorLine(e));
    }
  };

  return (
    <Card
      size="small"
      title={
        <Space wrap>
          <Typography.Text strong>{tool.name}</Typography.Text>
          <PermissionTag level={tool.permission} source={tool.permissionSource} />
        </Space>
      }
      data-testid="playground-tool"
    >
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'description', label: t('playground.tool.description'), children: tool.description || '—' },
          { key: 'server', label: t('playground.tool.server'), children: <Typography.Text code>{tool.serverId}</Typography.Text> },
          { key: 'raw', label: t('playground.tool.rawName'), children: <Typography.Text code>{tool.rawName}</Typography.Text> },
        ]}
      />
      <ToolArgsEditor inputSchema={tool.inputSchema} readArgsRef={readArgsRef} />
      <Space orientation="vertical" size="middle" style={{ width: '100%', marginTop: 8 }}>
        <Space>
          <Button type="primary" icon={<PlayCircleOutlined />} loading={calling} onClick={() => void call()} data-testid="tool-call">
            {t('playground.call')}
          </Button>
          {calling && mine.length > 0 && <Typography.Text type="secondary">{t('playground.waitingConfirmation')}</Typography.Text>}
        </Space>
        {/* While a confirmation waits, its card answers (Decline); once the tool runs, its progress and Cancel show. */}
        {calling && mine.length === 0 && <CallProgress progress={progress} onCancel={() => void cancel()} cancelling={cancelling} />}
        {cancelled && <Alert type="info" showIcon title={t('calls.cancelled')} data-testid="call-cancelled" />}
        {mine.map((request) => (
          <QuestionCard key={request.id} question={{ kind: 'toolConfirmation', request }} onAnswered={() => dismiss(request.id)} />
        ))}
        {myQuestions.map((request) => (
          <QuestionCard key={request.id} question={{ kind: 'elicitation', request }} onAnswered={() => questions.dismiss(request.id)} />
        ))}
        {mySamplings.map((request) => (
          <QuestionCard key={request.id} question={{ kind: 'sampling', request }} onAnswered={() => samplings.dismiss(request.id)} />
        ))}
        {callError && <ApiErrorAlert error={callError} />}
        {outcome && (
          <Card size="small" title={t('playground.result.title')}>
            {/* A resource link opens through the host's checked path, as this agent in this conversation. */}
            <ToolResultView outcome={outcome} renderOther={(json) => resultResource(json, (uri) => api.call('resources.read', { agentId, flow, conversationId, serverId: tool.serverId, uri }))} />
            {tool.ui?.resourceUri && !outcome.isError && (
              <PartSuspense fallback={null}>
                <McpAppFrame
                  caller={{ agentId, flow, conversationId }}
                  serverId={tool.serverId}
                  serverName={tool.serverName}
                  toolName={tool.rawName}
                  resourceUri={tool.ui.resourceUri}
                  toolInput={calledWith ?? {}}
                  toolResult={outcomeForView(outcome)}
                />
              </PartSuspense>
            )}
          </Card>
        )}
      </Space>
    </Card>
  );
}
