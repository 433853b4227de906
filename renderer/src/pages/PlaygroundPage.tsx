import { PlusOutlined } from '@ant-design/icons';
import { QuestionCard } from '../components/questions/QuestionCard';
import { Alert, App as AntApp, Button, Card, Col, Collapse, Empty, Row, Segmented, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ToolView } from '../../../src/shared/hostApi';
import { errorLine } from '../api/client';
import { useApi } from '../api/hooks';
import { ProblemList } from '../components/ProblemList';
import { ToolPicker } from '../components/playground/ToolPicker';
import { PLAYGROUND_PREFIX, usePlaygroundConversation } from '../components/playground/usePlaygroundConversation';
import { PlaygroundPrompts } from '../components/playground/PlaygroundPrompts';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import { usePending } from '../shell/questions';
import { lazyPart } from '../shell/lazyPart';
import { WorkspaceRootsButton } from '../components/workspaceRoots/WorkspaceRootsButton';
import '../i18n/load/calls';
import '../i18n/load/playground';
import '../i18n/load/resources';

// The picked tool's card (its arguments editor, the call, its result) loads with the first tool picked: the pickers are what the page shows first.
const PlaygroundToolCard = lazyPart(
  () => import('../components/playground/PlaygroundToolCard').then((m) => m.default),
  <Card size="small">
    <Skeleton active />
  </Card>,
);

// The servers' resources sit below the tools: their browser loads in a chunk of its own, after the pickers.
const ResourceBrowser = lazyPart(() => import('../components/resources/ResourceBrowser').then((m) => m.ResourceBrowser));

type Flow = 'main' | 'sub';

/**
 * Try an agent's tools through the real gateway: pick an agent, a flow and a
 * conversation, then a tool, fill its arguments and call it (the tool's card,
 * components/playground/PlaygroundToolCard.tsx); and its servers' prompts and
 * resources.
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

  const { pending, dismiss } = usePending('toolConfirmation');
  // Questions of an earlier playground conversation still waiting: shown at the top so none is invisible (this one's show under its tool's Call).
  const stale = pending.filter((request) => request.conversationId?.startsWith(PLAYGROUND_PREFIX) && request.conversationId !== conversationId);
  // A server's questions during the call, and its sampling requests, likewise.
  const questions = usePending('elicitation');
  const staleQuestions = questions.pending.filter((request) => request.conversationId?.startsWith(PLAYGROUND_PREFIX) && request.conversationId !== conversationId);
  const samplings = usePending('sampling');
  const staleSamplings = samplings.pending.filter((request) => request.conversationId?.startsWith(PLAYGROUND_PREFIX) && request.conversationId !== conversationId);

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
            <QuestionCard key={request.id} question={{ kind: 'toolConfirmation', request }} onAnswered={() => dismiss(request.id)} />
          ))}
          {staleQuestions.map((request) => (
            <QuestionCard key={request.id} question={{ kind: 'elicitation', request }} onAnswered={() => questions.dismiss(request.id)} />
          ))}
          {staleSamplings.map((request) => (
            <QuestionCard key={request.id} question={{ kind: 'sampling', request }} onAnswered={() => samplings.dismiss(request.id)} />
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
                agent && <PlaygroundToolCard key={`${tool.serverId}|${tool.name}`} agentId={agent.id} flow={flow} conversationId={conversationId} tool={tool} />
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
