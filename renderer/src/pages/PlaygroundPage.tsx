import { PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, Card, Col, Collapse, Descriptions, Empty, Row, Segmented, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { Suspense, lazy, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ToolOutcome, ToolView } from '../../../src/shared/hostApi';
import { type ApiError, api, errorLine, toApiError } from '../api/client';
import { useApi, useHostEvent } from '../api/hooks';
import { CallProgress, newCallId, type ProgressReport } from '../components/calls/CallProgress';
import { ConfirmationCard } from '../components/ConfirmationCard';
import { ElicitationCard } from '../components/elicitation/ElicitationCard';
import { ProblemList } from '../components/ProblemList';
import { ToolArgsEditor } from '../components/playground/ToolArgsEditor';
import { ToolPicker } from '../components/playground/ToolPicker';
import { PLAYGROUND_PREFIX, usePlaygroundConversation } from '../components/playground/usePlaygroundConversation';
import { PlaygroundPrompts } from '../components/playground/PlaygroundPrompts';
import { PermissionTag } from '../components/servers/permission';
import { ToolResultView } from '../components/ToolResultView';
import { ResourceBrowser } from '../components/resources/ResourceBrowser';
import { resultResource } from '../components/resources/ResultResource';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import { usePendingConfirmations } from '../shell/confirmations';
import { usePendingElicitations } from '../shell/elicitations';
import { usePendingSamplings } from '../shell/samplings';
import { LazySamplingCard } from '../components/sampling/LazySamplingCard';
import { WorkspaceRootsButton } from '../components/workspaceRoots/WorkspaceRootsButton';
import { outcomeForView } from '../components/mcpApps/viewToolResult';
import '../i18n/load/calls';
import '../i18n/load/playground';
import '../i18n/load/resources';

// The MCP App bridge loads with the first view a result shows (docs/using/mcp-apps.md).
const McpAppFrame = lazy(() => import('../components/mcpApps/McpAppFrame').then((module) => ({ default: module.McpAppFrame })));

type Flow = 'main' | 'sub';

/**
 * Try an agent's tools through the real gateway: pick an agent, a flow and a
 * conversation, fill a tool's arguments (a form from its schema, or raw
 * JSON) and call it. A confirm-level tool asks right under the Call button
 * (docs/rules/confirmation.md#confirmation), not in a dialog.
 */
export default function PlaygroundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = AntApp.useApp();
  const agents = useApi('agents.list', {}, { refreshOn: ['agents.changed'] });
  const [agentId, setAgentId] = useState<string | undefined>();
  const [flow, setFlow] = useState<Flow>('main');
  const conversation = usePlaygroundConversation();
  const { conversationId } = conversation;
  const agentList = agents.data?.agents ?? [];
  const agent = agentList.find((a) => a.id === agentId) ?? agentList[0];
  // Stable while the agent and conversation are: the prompts view lists (and completes) again only when they change.
  const promptScope = useMemo(() => (agent ? { agentId: agent.id, conversationId } : undefined), [agent?.id, conversationId]);

  const tools = useApi('tools.list', agent ? { agentId: agent.id, flow, conversationId } : undefined, {
    skip: !agent,
    refreshOn: ['mcp.reloaded', 'registry.changed', 'agents.changed', 'server.settings', 'server.tools'],
  });
  const [toolName, setToolName] = useState<string | undefined>();
  const tool: ToolView | undefined = tools.data?.tools.find((x) => x.name === toolName);
  // Problems of the agent file itself (its apps, host app, model) come first; the rest (a server that failed) stay folded.
  const agentProblems = (tools.data?.problems ?? []).filter((problem) => problem.code.startsWith('AGENT_'));
  const otherProblems = (tools.data?.problems ?? []).filter((problem) => !problem.code.startsWith('AGENT_'));

  const { pending, dismiss } = usePendingConfirmations();
  const mine = pending.filter((request) => request.conversationId === conversationId);
  // Questions of an earlier playground conversation still waiting: shown at the top so none is invisible.
  const stale = pending.filter((request) => request.conversationId?.startsWith(PLAYGROUND_PREFIX) && request.conversationId !== conversationId);
  // A server's questions during the call, under it; those of an earlier playground conversation at the top, as above.
  const questions = usePendingElicitations();
  const myQuestions = questions.pending.filter((request) => request.conversationId === conversationId);
  const staleQuestions = questions.pending.filter((request) => request.conversationId?.startsWith(PLAYGROUND_PREFIX) && request.conversationId !== conversationId);
  // A server's sampling requests during the call, likewise.
  const samplings = usePendingSamplings();
  const mySamplings = samplings.pending.filter((request) => request.conversationId === conversationId);
  const staleSamplings = samplings.pending.filter((request) => request.conversationId?.startsWith(PLAYGROUND_PREFIX) && request.conversationId !== conversationId);

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
  // A result belongs to the tool, flow and conversation it came from.
  useEffect(() => {
    setOutcome(undefined);
    setCallError(undefined);
    setCancelled(false);
  }, [toolName, flow, conversationId, agent?.id]);

  useHostEvent('tool.progress', (event) => {
    if (event.callId === callId)
      setProgress({ progress: event.progress, ...(event.total !== undefined ? { total: event.total } : {}), ...(event.message !== undefined ? { message: event.message } : {}) });
  });

  const call = async () => {
    if (!agent || !tool) return;
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
      setOutcome(await api.call('tools.call', { agentId: agent.id, flow, conversationId, tool: tool.name, args, callId: id }));
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

  const newConversation = async () => {
    try {
      const { released } = await conversation.startNew();
      void message.success(t('playground.conversation.ended', { count: released }));
    } catch (e) {
      void message.error(errorLine(e));
    }
  };

  if (!agents.data && agents.loading) return <Skeleton active data-testid="page-playground" />;
  if (!agents.data && agents.error)
    return (
      <div data-testid="page-playground">
        <ApiErrorAlert error={agents.error} onRetry={() => void agents.reload()} />
      </div>
    );

  return (
    <div data-testid="page-playground">
      <Typography.Title level={3} style={{ marginTop: 0, marginBottom: 4 }}>
        {t('playground.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('playground.subtitle')}</Typography.Paragraph>
      {stale.length + staleQuestions.length + staleSamplings.length > 0 && (
        <Space orientation="vertical" style={{ width: '100%', marginBottom: 16 }}>
          <Typography.Text type="warning">{t('playground.staleConfirmations')}</Typography.Text>
          {stale.map((request) => (
            <ConfirmationCard key={request.id} request={request} onAnswered={() => dismiss(request.id)} />
          ))}
          {staleQuestions.map((request) => (
            <ElicitationCard key={request.id} request={request} onAnswered={() => questions.dismiss(request.id)} />
          ))}
          {staleSamplings.map((request) => (
            <LazySamplingCard key={`${request.id}-${request.stage}`} request={request} onAnswered={() => samplings.dismiss(request.id)} />
          ))}
        </Space>
      )}
      {agentList.length === 0 ? (
        <Empty description={t('playground.noAgents')}>
          <Button type="primary" onClick={() => void navigate('/agents')}>
            {t('playground.toAgents')}
          </Button>
        </Empty>
      ) : (
        <>
          <Card size="small" style={{ marginBottom: 16 }}>
            <Space wrap size="large">
              <Space>
                <Typography.Text>{t('playground.agent')}</Typography.Text>
                <Select
                  style={{ minWidth: 220 }}
                  value={agent?.id}
                  onChange={(id) => {
                    setAgentId(id);
                    setToolName(undefined);
                  }}
                  options={agentList.map((a) => ({ value: a.id, label: `${a.name} (${a.id})` }))}
                  showSearch
                  optionFilterProp="label"
                  data-testid="playground-agent"
                />
              </Space>
              <Space>
                <Typography.Text>{t('playground.flow')}</Typography.Text>
                <Segmented<Flow>
                  value={flow}
                  onChange={setFlow}
                  options={[
                    { value: 'main', label: t('playground.flowMain') },
                    { value: 'sub', label: t('playground.flowSub') },
                  ]}
                  data-testid="playground-flow"
                />
              </Space>
              <Space>
                <Typography.Text>{t('playground.conversation.label')}</Typography.Text>
                <Tag data-testid="playground-conversation">{conversationId}</Tag>
                <Button icon={<PlusOutlined />} loading={conversation.ending} onClick={() => void newConversation()} data-testid="playground-new-conversation">
                  {t('playground.conversation.new')}
                </Button>
                <WorkspaceRootsButton conversationId={conversationId} {...(agent ? { agentId: agent.id } : {})} />
              </Space>
            </Space>
          </Card>
          <Row gutter={[16, 16]}>
            <Col xs={24} lg={9}>
              <Card size="small" title={t('playground.tools.title', { count: tools.data?.tools.length ?? 0 })}>
                {tools.error && <ApiErrorAlert error={tools.error} onRetry={() => void tools.reload()} />}
                {/* The agent's own setup (a misspelled plugin id, a missing host app) is the cause to fix first: said here, where the tools are missing. */}
                {agentProblems.length > 0 && (
                  <Alert
                    type="warning"
                    showIcon
                    style={{ marginBottom: 8 }}
                    title={t('playground.agentProblems')}
                    description={
                      <>
                        <ProblemList problems={agentProblems} testId="playground-agent-problems" />
                        <Button size="small" onClick={() => void navigate('/agents')} data-testid="playground-edit-agent">
                          {t('playground.editAgent')}
                        </Button>
                      </>
                    }
                    data-testid="playground-agent-problem"
                  />
                )}
                {!tools.data && tools.loading ? (
                  <Skeleton active />
                ) : tools.data && tools.data.tools.length === 0 ? (
                  <Empty
                    description={
                      agentProblems.length > 0 ? t('playground.tools.noneSeeAbove') : t('playground.tools.none', { flow: t(flow === 'main' ? 'playground.flowMain' : 'playground.flowSub') })
                    }
                  />
                ) : (
                  tools.data && <ToolPicker tools={tools.data.tools} selected={tool?.name} onSelect={setToolName} />
                )}
                {/* The lease reminders are for a model ("call mcp_release"); a person is told what they mean here. */}
                {tools.data && tools.data.reminders.length > 0 && (
                  <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }} data-testid="playground-lease-note">
                    {t('calls.leaseNote')}
                  </Typography.Paragraph>
                )}
                {otherProblems.length > 0 && (
                  <Collapse
                    size="small"
                    style={{ marginTop: 8 }}
                    items={[{ key: 'problems', label: t('playground.tools.problems', { count: otherProblems.length }), children: <ProblemList problems={otherProblems} /> }]}
                  />
                )}
              </Card>
            </Col>
            <Col xs={24} lg={15}>
              {!tool ? (
                <Card size="small">
                  <Empty description={t('playground.pickTool')} />
                </Card>
              ) : (
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
                  <ToolArgsEditor key={`${tool.serverId}|${tool.name}`} inputSchema={tool.inputSchema} readArgsRef={readArgsRef} />
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
                      <ConfirmationCard key={request.id} request={request} onAnswered={() => dismiss(request.id)} />
                    ))}
                    {myQuestions.map((request) => (
                      <ElicitationCard key={request.id} request={request} onAnswered={() => questions.dismiss(request.id)} />
                    ))}
                    {mySamplings.map((request) => (
                      <LazySamplingCard key={`${request.id}-${request.stage}`} request={request} onAnswered={() => samplings.dismiss(request.id)} />
                    ))}
                    {callError && <ApiErrorAlert error={callError} />}
                    {outcome && (
                      <Card size="small" title={t('playground.result.title')}>
                        {/* A resource link opens through the host's checked path, as this agent in this conversation. */}
                        <ToolResultView
                          outcome={outcome}
                          renderOther={(json) => resultResource(json, (uri) => api.call('resources.read', { agentId: agent!.id, flow, conversationId, serverId: tool.serverId, uri }))}
                        />
                        {agent && tool?.ui?.resourceUri && !outcome.isError && (
                          <Suspense fallback={null}>
                            <McpAppFrame
                              caller={{ agentId: agent.id, flow, conversationId }}
                              serverId={tool.serverId}
                              serverName={tool.serverName}
                              toolName={tool.rawName}
                              resourceUri={tool.ui.resourceUri}
                              toolInput={calledWith ?? {}}
                              toolResult={outcomeForView(outcome)}
                            />
                          </Suspense>
                        )}
                      </Card>
                    )}
                  </Space>
                </Card>
              )}
            </Col>
          </Row>
          {promptScope && (
            <Card size="small" title={t('playground.prompts.title')} style={{ marginTop: 16 }} data-testid="playground-prompts">
              <PlaygroundPrompts key={`${promptScope.agentId}|${conversationId}`} scope={promptScope} />
            </Card>
          )}
          {agent && (
            <Card size="small" title={t('resources.title')} style={{ marginTop: 16 }} data-testid="playground-resources">
              <ResourceBrowser asker={{ agentId: agent.id, flow, conversationId }} />
            </Card>
          )}
        </>
      )}
    </div>
  );
}
