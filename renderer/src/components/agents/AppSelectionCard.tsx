import { Alert, Card, Form, Select, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AppView } from '../../../../src/shared/hostApi';
import { type Candidate, type Candidates, type RegistryOverview, promptCandidates, serverCandidates } from './candidates';
import { GrantMissing } from './GrantMissing';
import '../../i18n/load/agents';

interface Props {
  form: FormInstance;
  index: number;
  pluginId: string;
  appId: string;
  /** Undefined when the agent names an app that is not installed any more. */
  app: AppView | undefined;
  overview: RegistryOverview | undefined;
  hostAppId: string;
  onChanged(): void;
}

/** Select options: the candidates, then any stored id that is no candidate (kept so nothing is lost silently). */
function optionsOf(candidates: Candidates, selected: string[] | undefined, t: (key: string) => string) {
  const known = new Set(candidates.items.map((c) => c.id));
  const extra: Candidate[] = (selected ?? []).filter((id) => !known.has(id)).map((id) => ({ id, own: false, visible: false }));
  return [...candidates.items, ...extra].map((c) => ({
    value: c.id,
    // `short` is what a chosen item shows in the select; `label` is the full line in the dropdown.
    short: c.id,
    label: (
      <Space size={4}>
        <Typography.Text code>{c.id}</Typography.Text>
        {c.own && <Tag color="blue">{t('agents.editor.own')}</Tag>}
        {!known.has(c.id) && <Tag color="red">{t('agents.editor.notOffered')}</Tag>}
        {known.has(c.id) && !c.visible && <Tag color="orange">{t('agents.editor.notVisible')}</Tag>}
        {c.description && <Typography.Text type="secondary">{c.description}</Typography.Text>}
      </Space>
    ),
    // What the select's search matches.
    search: `${c.id} ${c.description ?? ''}`,
  }));
}

/**
 * One chosen app (docs/rules/agents.md#what-an-agent-stores): switch its MCP and prompt on, and
 * pick which of its servers and prompts the agent mounts.
 */
export function AppSelectionCard({ form, index, pluginId, appId, app, overview, hostAppId, onChanged }: Props) {
  const { t } = useTranslation();
  const mcpOn = Form.useWatch(['uiApps', index, 'mcp'], form) as boolean | undefined;
  const promptOn = Form.useWatch(['uiApps', index, 'prompt'], form) as boolean | undefined;
  const serverIds = Form.useWatch(['uiApps', index, 'mcpServerIds'], form) as string[] | undefined;
  const promptIds = Form.useWatch(['uiApps', index, 'promptIds'], form) as string[] | undefined;
  const testId = `agent-app-${pluginId}-${appId}`;
  const empty: Candidates = { items: [], unmatched: [] };
  const servers = app && overview ? serverCandidates(app, overview, hostAppId) : empty;
  const prompts = app && overview ? promptCandidates(app, overview, hostAppId) : empty;
  /** Chosen ids the app offers but the host app may not see: each gets a one-click grant. */
  const hidden = (candidates: Candidates, chosen: string[] | undefined) => (chosen ?? []).filter((id) => candidates.items.some((c) => c.id === id && !c.visible));

  // Turning MCP on with nothing picked preselects the app's own server: that is what it is for (way A).
  const onMcpSwitch = (on: boolean) => {
    if (on && (serverIds ?? []).length === 0 && app?.serverId) form.setFieldValue(['uiApps', index, 'mcpServerIds'], [app.serverId]);
    onChanged();
  };

  return (
    <Card
      size="small"
      data-testid={testId}
      title={
        <Space size={6} wrap>
          <span>{app?.name ?? appId}</span>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
            {pluginId}/{appId}
          </Typography.Text>
        </Space>
      }
      extra={
        app && (
          <Space size={2}>
            <Tooltip title={t('agents.editor.allowMainHelp')}>
              <Tag color={app.allowMain ? 'green' : 'default'}>{app.allowMain ? t('agents.editor.mainOk') : t('agents.editor.mainNo')}</Tag>
            </Tooltip>
            <Tooltip title={t('agents.editor.allowSubHelp')}>
              <Tag color={app.allowSub ? 'green' : 'default'}>{app.allowSub ? t('agents.editor.subOk') : t('agents.editor.subNo')}</Tag>
            </Tooltip>
          </Space>
        )
      }
    >
      {!app && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('agents.editor.appMissing', { app: `${pluginId}/${appId}` })} />}
      <Form.Item label={t('agents.editor.mcp')} name={['uiApps', index, 'mcp']} valuePropName="checked" layout="horizontal" style={{ marginBottom: 8 }}>
        <Switch data-testid={`${testId}-mcp`} onChange={onMcpSwitch} />
      </Form.Item>
      {mcpOn && (
        <Form.Item name={['uiApps', index, 'mcpServerIds']} extra={app?.serverId ? t('agents.editor.ownServerAlways') : undefined}>
          <Select
            mode="multiple"
            data-testid={`${testId}-servers`}
            placeholder={t('agents.editor.pickServers')}
            options={optionsOf(servers, serverIds, t)}
            optionFilterProp="search"
            optionLabelProp="short"
            notFoundContent={t('agents.editor.noServers')}
            onChange={onChanged}
          />
        </Form.Item>
      )}
      {mcpOn && servers.unmatched.length > 0 && <Unmatched names={servers.unmatched} />}
      {mcpOn && <GrantMissing hostAppId={hostAppId} ids={hidden(servers, serverIds)} testId={`${testId}-grant-servers`} />}
      <Form.Item label={t('agents.editor.prompt')} name={['uiApps', index, 'prompt']} valuePropName="checked" layout="horizontal" style={{ marginBottom: promptOn ? 8 : 0 }}>
        <Switch data-testid={`${testId}-prompt`} onChange={onChanged} />
      </Form.Item>
      {promptOn && (
        <Form.Item name={['uiApps', index, 'promptIds']} style={{ marginBottom: 0 }} extra={t('agents.editor.ownPromptAlways')}>
          <Select
            mode="multiple"
            data-testid={`${testId}-prompts`}
            placeholder={t('agents.editor.pickPrompts')}
            options={optionsOf(prompts, promptIds, t)}
            optionFilterProp="search"
            optionLabelProp="short"
            notFoundContent={t('agents.editor.noPrompts')}
            onChange={onChanged}
          />
        </Form.Item>
      )}
      {promptOn && prompts.unmatched.length > 0 && <Unmatched names={prompts.unmatched} />}
      {promptOn && <GrantMissing hostAppId={hostAppId} ids={hidden(prompts, promptIds)} testId={`${testId}-grant-prompts`} />}
    </Card>
  );
}

function Unmatched({ names }: { names: string[] }) {
  const { t } = useTranslation();
  return <Alert type="warning" showIcon style={{ marginTop: 8 }} title={t('agents.editor.unmatched', { names: names.join(', ') })} />;
}
