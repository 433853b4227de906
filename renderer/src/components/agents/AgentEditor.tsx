import { Alert, Button, Col, Collapse, Divider, Form, Input, Radio, Row, Select, Space, Switch, Typography, theme } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Agent, AgentUiApp } from '../../../../src/shared/agents';
import type { AgentPreview } from '../../../../src/shared/hostApi';
import { ApiError, api, onReconnect, toApiError } from '../../api/client';
import { useApi } from '../../api/hooks';
import { usePreferences } from '../../shell/preferences';
import { AgentMemoryList } from './AgentMemoryList';
import { AgentPreviewPanel } from './AgentPreviewPanel';
import { AlwaysAllowedTools } from './AlwaysAllowedTools';
import { AppSelectionCard } from './AppSelectionCard';
import { SubAgentConfirm, type SubAgentLevels } from './SubAgentConfirm';
import { appKey } from './candidates';
import { formFieldOf, type FieldPath } from './fieldPaths';
import { isHostEntry, OwnServersCard } from './OwnServersCard';
import { useDropRemovedServers } from './removedServers';
import { FolderListInput } from '../workspaceRoots/FolderListInput';
import '../../i18n/load/workspaceRoots';
import '../../i18n/load/agents';

/** The editor's values: the agent's own fields (docs/rules/agents.md#what-an-agent-stores). */
interface Draft {
  id?: string;
  name: string;
  description: string;
  hostAppId: string;
  language: 'zh' | 'en';
  uiApps: AgentUiApp[];
  /** `acp`: an external ACP agent program answers (docs/using/acp.md), run as `acpCommand acpArgs…` with `acpEnv`. */
  kind: 'model' | 'acp';
  acpCommand: string;
  acpArgs: string[];
  /** Whether its terminal requests are refused (`off`) or asked before each command (`ask`): docs/using/acp.md#terminals. */
  acpTerminal: 'off' | 'ask';
  /** Kept as the agent has it (its JSON sets it; the editor does not show values that may be keys). */
  acpEnv?: Record<string, string>;
  /** Chat: the model it answers with, its own instructions, the agents it may delegate to. */
  modelId?: string;
  systemPrompt: string;
  subAgents: string[];
  /** Per sub-agent id, the level of its calls (confirm: asks first); unset, they run without asking. */
  subAgentPermissions?: SubAgentLevels;
  /** Knowledge bases it may search (knowledge_search, offered by the gateway). */
  knowledgeBases: string[];
  /** Its workspace roots: the folders its servers are told (roots/list). */
  roots: string[];
  /** Its memory switch (memory tools offered when on; shared with its host app's agents that share). */
  memory: { enabled: boolean; shared: boolean };
}

const PREVIEW_DELAY_MS = 300;
/** Host changes that alter what a draft would get: its tools, their switches and permissions, grants, plugins. */
const PREVIEW_REFRESH_ON = new Set<string>(['server.settings', 'server.tools', 'mcp.reloaded', 'registry.changed', 'plugins.changed']);

function toAgentJson(draft: Draft, creating: boolean): Record<string, unknown> {
  const uiApps = (draft.uiApps ?? []).map((u) => ({ pluginId: u.pluginId, appId: u.appId, mcp: !!u.mcp, prompt: !!u.prompt, mcpServerIds: u.mcpServerIds ?? [], promptIds: u.promptIds ?? [] }));
  const agent: Record<string, unknown> = {
    name: draft.name ?? '',
    description: draft.description ?? '',
    hostAppId: draft.hostAppId,
    language: draft.language,
    uiApps,
    systemPrompt: draft.systemPrompt ?? '',
    subAgents: draft.subAgents ?? [],
    knowledgeBases: draft.knowledgeBases ?? [],
    roots: draft.roots ?? [],
  };
  if (draft.modelId) agent.modelId = draft.modelId;
  // Saved whole: an ACP agent edited here stays one, with its program and environment.
  if (draft.kind === 'acp') {
    agent.kind = 'acp';
    agent.acp = {
      command: (draft.acpCommand ?? '').trim(),
      args: draft.acpArgs ?? [],
      ...(draft.acpEnv ? { env: draft.acpEnv } : {}),
      // Written only when on: an agent never given a terminal keeps no field (and its trusted fingerprint).
      ...(draft.acpTerminal === 'ask' ? { terminal: 'ask' } : {}),
    };
  }
  // Written once switched on (or shared): an agent that never had memory keeps no field for it.
  if (draft.memory?.enabled || draft.memory?.shared) agent.memory = { enabled: !!draft.memory.enabled, shared: !!draft.memory.shared };
  // A level is kept for the sub-agents it still has; the agent keeps levels it was given elsewhere (its JSON) the same way.
  const levels = Object.entries(draft.subAgentPermissions ?? {}).filter(([id]) => (draft.subAgents ?? []).includes(id));
  if (levels.length) agent.subAgentPermissions = Object.fromEntries(levels);
  if (creating && draft.id?.trim()) agent.id = draft.id.trim();
  return agent;
}

/**
 * Asks `agents.preview` for the draft, at most once per pause in typing, and
 * again when the host's tools or grants change; an older answer never replaces a newer one.
 */
function usePreview(agentJson: Record<string, unknown>) {
  const key = JSON.stringify(agentJson);
  const [state, setState] = useState<{ preview?: AgentPreview; error?: ApiError; loading: boolean }>({ loading: true });
  const [hostVersion, setHostVersion] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const bump = () => setHostVersion((v) => v + 1);
    const offEvents = api.onAny((event) => PREVIEW_REFRESH_ON.has(event.type) && bump());
    const offReconnect = onReconnect(bump);
    return () => {
      offEvents();
      offReconnect();
    };
  }, []);
  useEffect(() => {
    const call = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    const timer = setTimeout(() => {
      api.call('agents.preview', { agent: JSON.parse(key) as Record<string, unknown> }).then(
        (preview) => call === latest.current && setState({ preview, loading: false }),
        (error: unknown) => call === latest.current && setState((s) => ({ ...s, error: toApiError(error), loading: false })),
      );
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, hostVersion]);
  return state;
}

export interface AgentEditorProps {
  /** The agent to edit; undefined to create one. */
  agent?: Agent;
  onCancel(): void;
  onSaved(agent: Agent): void;
}

/**
 * The agent form (docs/using/agents.md#a-ready-assistant): what a person sets
 * first (name, model, instructions), then "Tools and apps" (their own
 * servers, the apps and per app its MCP / prompt switches and selections,
 * knowledge bases, sub-agents) and "Advanced" (id, description, the app it
 * acts as, prompt language). The live preview beside it shows what the draft would get.
 */
export function AgentEditor({ agent, onCancel, onSaved }: AgentEditorProps) {
  const { t, i18n } = useTranslation();
  const { settings } = usePreferences();
  const [form] = Form.useForm<Draft>();
  const { token } = theme.useToken();
  const creating = agent === undefined;
  const apps = useApi('apps.list', {}, { refreshOn: ['plugins.changed'] });
  const overview = useApi('registry.overview', {}, { refreshOn: ['registry.changed', 'plugins.changed'] });
  const models = useApi('models.list', {}, { refreshOn: ['models.changed'] });
  const agents = useApi('agents.list', {}, { refreshOn: ['agents.changed'] });
  const knowledge = useApi('knowledge.list', {}, { refreshOn: ['knowledge.changed'] });
  const initial = useMemo<Draft>(
    () =>
      agent
        ? {
            name: agent.name,
            description: agent.description,
            hostAppId: agent.hostAppId,
            language: agent.language,
            uiApps: agent.uiApps,
            kind: agent.kind ?? 'model',
            acpCommand: agent.acp?.command ?? '',
            acpArgs: agent.acp?.args ?? [],
            acpTerminal: agent.acp?.terminal ?? 'off',
            ...(agent.acp?.env ? { acpEnv: agent.acp.env } : {}),
            modelId: agent.modelId,
            systemPrompt: agent.systemPrompt,
            subAgents: agent.subAgents,
            subAgentPermissions: agent.subAgentPermissions ?? {},
            knowledgeBases: agent.knowledgeBases ?? [],
            roots: agent.roots ?? [],
            memory: { enabled: agent.memory?.enabled ?? false, shared: agent.memory?.shared ?? false },
          }
        : {
            id: '',
            name: '',
            description: '',
            hostAppId: 'chatos',
            language: i18n.language === 'zh' ? 'zh' : 'en',
            uiApps: [],
            kind: 'model',
            acpCommand: '',
            acpArgs: [],
            acpTerminal: 'off',
            systemPrompt: '',
            subAgents: [],
            knowledgeBases: [],
            roots: [],
            memory: { enabled: false, shared: false },
            // A new agent gets the default model of the settings (docs/using/settings.md).
            ...(settings.defaultModelId ? { modelId: settings.defaultModelId } : {}),
          },
    [agent, i18n.language, settings.defaultModelId],
  );
  const [draft, setDraft] = useState<Draft>(initial);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<{ error: ApiError; unplaced: { path: string; message: string }[] } | undefined>();
  // The host previews only a draft that would save; a missing name (shown under the name input) should not
  // hide what the chosen apps give, so the preview gets a stand-in name until the user types one.
  const previewJson = toAgentJson(draft, creating);
  if (!String(previewJson.name).trim()) previewJson.name = t('agents.editor.untitled');
  const preview = usePreview(previewJson);

  // A new, untouched draft is not "wrong" yet: its field errors show once the user has typed something.
  const [touched, setTouched] = useState(!creating);
  const refreshDraft = () => {
    setTouched(true);
    setDraft({ ...(form.getFieldsValue(true) as Draft) });
  };
  const installed = apps.data?.apps ?? [];
  const appByKey = new Map(installed.map((a) => [appKey(a), a]));
  const uiApps = draft.uiApps ?? [];
  // The host's own entry is picked in "Your own servers", not among the installed apps.
  const selectedKeys = uiApps.filter((u) => !isHostEntry(u)).map(appKey);
  const setUiApps = (next: AgentUiApp[]) => {
    form.setFieldValue('uiApps', next);
    refreshDraft();
  };
  useDropRemovedServers(overview.data, () => (form.getFieldValue('uiApps') as AgentUiApp[] | undefined) ?? [], setUiApps);

  const appOptions = [
    ...installed.map((a) => ({ value: appKey(a), label: `${a.name} (${appKey(a)})`, search: `${a.name} ${appKey(a)} ${a.description ?? ''}` })),
    ...selectedKeys.filter((k) => !appByKey.has(k)).map((k) => ({ value: k, label: `${k} — ${t('agents.editor.notInstalled')}`, search: k })),
  ];
  // Host apps by the name a person knows (the installed app that provides the id; ChatOS itself), the id only as a hint.
  const hostName = (appId: string) => (appId === 'chatos' ? t('agents.field.hostAppChatos') : installed.find((a) => a.providerAppId === appId)?.name);
  const hostOption = (appId: string) => {
    const name = hostName(appId);
    return { value: appId, label: name ? `${name} · ${appId}` : appId, search: `${name ?? ''} ${appId}` };
  };
  const hostOptions = (overview.data?.apps ?? []).map((a) => hostOption(a.appId));
  if (draft.hostAppId && !hostOptions.some((o) => o.value === draft.hostAppId)) hostOptions.push(hostOption(draft.hostAppId));

  /** Apps first: the chosen apps in order; an app chosen again keeps its switches and selections. */
  const onAppsChange = (keys: string[]) => {
    const current = (form.getFieldValue('uiApps') as AgentUiApp[] | undefined) ?? [];
    const next = [
      ...current.filter(isHostEntry),
      ...keys.map((key) => {
        const existing = current.find((u) => appKey(u) === key);
        if (existing) return existing;
        const app = appByKey.get(key);
        const [pluginId = '', appId = ''] = key.split('/');
        return { pluginId, appId, mcp: !!app?.serverId, prompt: true, mcpServerIds: app?.serverId ? [app.serverId] : [], promptIds: [] };
      }),
    ];
    setUiApps(next);
  };

  const save = async () => {
    setSaving(true);
    setSaveError(undefined);
    const body = toAgentJson(form.getFieldsValue(true) as Draft, creating);
    try {
      const result = await api.call('agents.save', creating ? { agent: body } : { id: agent.id, agent: body });
      onSaved(result.agent);
    } catch (e) {
      const error = toApiError(e);
      const byField = new Map<string, { name: FieldPath; errors: string[] }>();
      const unplaced: { path: string; message: string }[] = [];
      for (const field of error.fields ?? []) {
        const name = formFieldOf(field.path);
        if (!name) {
          unplaced.push(field);
          continue;
        }
        const entry = byField.get(JSON.stringify(name)) ?? { name, errors: [] };
        entry.errors.push(field.message);
        byField.set(JSON.stringify(name), entry);
      }
      form.setFields([...byField.values()] as Parameters<typeof form.setFields>[0]);
      setSaveError({ error, unplaced });
    } finally {
      setSaving(false);
    }
  };

  const loadError = apps.error ?? overview.error;
  return (
    <Row gutter={24} style={{ minHeight: '100%' }}>
      <Col xs={24} lg={13}>
        {loadError && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 16 }}
            title={loadError.message}
            description={loadError.hint}
            action={
              <Button size="small" onClick={() => void Promise.all([apps.reload(), overview.reload()])}>
                {t('agents.retry')}
              </Button>
            }
          />
        )}
        {saveError && (
          <Alert
            type="error"
            showIcon
            closable={{ onClose: () => setSaveError(undefined) }}
            style={{ marginBottom: 16 }}
            data-testid="agent-save-error"
            title={saveError.error.fields?.length ? t('agents.editor.fixFields') : saveError.error.message}
            description={
              <>
                {saveError.error.hint && <div>{saveError.error.hint}</div>}
                {saveError.unplaced.map((f, i) => (
                  <div key={i}>
                    <Typography.Text code>{f.path || '(agent)'}</Typography.Text> {f.message}
                  </div>
                ))}
              </>
            }
          />
        )}
        <Form<Draft> form={form} layout="vertical" initialValues={initial} onValuesChange={refreshDraft}>
          <Form.Item label={t('agents.field.name')} name="name" required>
            <Input data-testid="agent-name" placeholder={t('agents.field.namePlaceholder')} />
          </Form.Item>
          <Form.Item label={t('agents.field.kind')} name="kind" extra={t('agents.field.kindHelp')}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 'model', label: t('agents.kind.model') },
                { value: 'acp', label: t('agents.kind.acp') },
              ]}
              data-testid="agent-kind"
            />
          </Form.Item>
          {draft.kind === 'acp' && (
            <>
              <Form.Item label={t('agents.field.acpCommand')} name="acpCommand" required extra={t('agents.field.acpCommandHelp')}>
                <Input data-testid="agent-acp-command" placeholder="npx" />
              </Form.Item>
              <Form.Item label={t('agents.field.acpArgs')} name="acpArgs" extra={t('agents.field.acpArgsHelp')}>
                <Select mode="tags" open={false} tokenSeparators={[]} data-testid="agent-acp-args" placeholder="@zed-industries/codex-acp" />
              </Form.Item>
              <Form.Item label={t('agents.field.acpTerminal')} name="acpTerminal" extra={t('agents.field.acpTerminalHelp')}>
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 'off', label: t('agents.acpTerminal.off') },
                    { value: 'ask', label: t('agents.acpTerminal.ask') },
                  ]}
                  data-testid="agent-acp-terminal"
                />
              </Form.Item>
            </>
          )}
          <Form.Item label={t('agents.field.model')} name="modelId" extra={t('agents.field.modelHelp')}>
            <Select
              allowClear
              loading={models.loading && !models.data}
              placeholder={t('agents.field.modelPlaceholder')}
              options={[
                ...(models.data?.models ?? []).map((m) => ({ value: m.id, label: `${m.name} (${m.id})` })),
                ...(draft.modelId && models.data && !models.data.models.some((m) => m.id === draft.modelId)
                  ? [{ value: draft.modelId, label: `${draft.modelId} — ${t('agents.field.modelMissing')}` }]
                  : []),
              ]}
              data-testid="agent-model"
            />
          </Form.Item>
          <Form.Item label={t('agents.field.systemPrompt')} name="systemPrompt" extra={t('agents.field.systemPromptHelp')}>
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 12 }} data-testid="agent-system-prompt" placeholder={t('agents.field.systemPromptPlaceholder')} />
          </Form.Item>
          <Collapse
            defaultActiveKey={creating ? [] : ['tools']}
            data-testid="agent-sections"
            items={[
              {
                key: 'tools',
                forceRender: true,
                label: <span data-testid="agent-section-tools">{t('agents.editor.toolsStep')}</span>,
                children: (
                  <>
                    <OwnServersCard uiApps={uiApps} overview={overview.data} hostAppId={draft.hostAppId} agentId={agent?.id} onChange={setUiApps} />
                    <Form.Item label={t('agents.field.apps')} htmlFor="agent-apps" extra={t('agents.field.appsHelp')} style={{ marginTop: 16 }}>
                      <Select
                        id="agent-apps"
                        aria-label={t('agents.field.apps')}
                        mode="multiple"
                        value={selectedKeys}
                        onChange={onAppsChange}
                        options={appOptions}
                        optionFilterProp="search"
                        loading={apps.loading && !apps.data}
                        placeholder={t('agents.field.appsPlaceholder')}
                        notFoundContent={t('agents.editor.noApps')}
                        data-testid="agent-apps-select"
                      />
                    </Form.Item>
                    {selectedKeys.length > 0 && (
                      <Space orientation="vertical" size="middle" style={{ width: '100%', marginBottom: 16 }}>
                        {uiApps.map((u, index) =>
                          isHostEntry(u) ? null : (
                            <AppSelectionCard
                              key={appKey(u)}
                              form={form}
                              index={index}
                              pluginId={u.pluginId}
                              appId={u.appId}
                              app={appByKey.get(appKey(u))}
                              overview={overview.data}
                              hostAppId={draft.hostAppId}
                              onChanged={refreshDraft}
                            />
                          ),
                        )}
                      </Space>
                    )}
                    <Form.Item label={t('agents.field.knowledgeBases')} name="knowledgeBases" extra={t('agents.field.knowledgeBasesHelp')}>
                      <Select
                        mode="multiple"
                        options={[
                          ...(knowledge.data?.knowledgeBases ?? []).map((b) => ({ value: b.id, label: `${b.name} (${b.id})` })),
                          // A base attached but gone stays visible, so saving does not drop it unseen.
                          ...(draft.knowledgeBases ?? [])
                            .filter((id) => knowledge.data && !knowledge.data.knowledgeBases.some((b) => b.id === id))
                            .map((id) => ({ value: id, label: `${id} — ${t('agents.field.knowledgeBaseMissing')}` })),
                        ]}
                        optionFilterProp="label"
                        placeholder={t('agents.field.knowledgeBasesPlaceholder')}
                        data-testid="agent-knowledge-bases"
                      />
                    </Form.Item>
                    <Form.Item label={t('workspaceRoots.field')} name="roots" extra={t('workspaceRoots.fieldHelp')}>
                      <FolderListInput testId="agent-roots" />
                    </Form.Item>
                    <Form.Item
                      label={t('agents.field.subAgents')}
                      name="subAgents"
                      extra={t('agents.field.subAgentsHelp')}
                      style={(draft.subAgents ?? []).length > 0 ? undefined : { marginBottom: 0 }}
                    >
                      <Select
                        mode="multiple"
                        options={(agents.data?.agents ?? []).filter((a) => a.id !== agent?.id).map((a) => ({ value: a.id, label: `${a.name} (${a.id})` }))}
                        optionFilterProp="label"
                        data-testid="agent-sub-agents"
                      />
                    </Form.Item>
                    {(draft.subAgents ?? []).length > 0 && (
                      <Form.Item label={t('agents.field.subAgentConfirm')} name="subAgentPermissions" extra={t('agents.field.subAgentConfirmHelp')} style={{ marginBottom: 0 }}>
                        <SubAgentConfirm ids={draft.subAgents} nameOf={(id) => agents.data?.agents.find((a) => a.id === id)?.name ?? id} />
                      </Form.Item>
                    )}
                  </>
                ),
              },
              {
                key: 'memory',
                forceRender: true,
                label: <span data-testid="agent-section-memory">{t('agents.editor.memoryStep')}</span>,
                children: (
                  <>
                    <Typography.Paragraph type="secondary">{t('agents.memory.help')}</Typography.Paragraph>
                    <Row gutter={16}>
                      <Col span={12}>
                        <Form.Item label={t('agents.field.memoryEnabled')} name={['memory', 'enabled']} valuePropName="checked" extra={t('agents.field.memoryEnabledHelp')}>
                          <Switch data-testid="agent-memory-enabled" />
                        </Form.Item>
                      </Col>
                      <Col span={12}>
                        <Form.Item label={t('agents.field.memoryShared')} name={['memory', 'shared']} valuePropName="checked" extra={t('agents.field.memorySharedHelp')}>
                          <Switch data-testid="agent-memory-shared" />
                        </Form.Item>
                      </Col>
                    </Row>
                    {agent ? <AgentMemoryList agentId={agent.id} /> : <Typography.Text type="secondary">{t('agents.memory.saveFirst')}</Typography.Text>}
                  </>
                ),
              },
              {
                key: 'advanced',
                forceRender: true,
                label: <span data-testid="agent-section-advanced">{t('agents.editor.advancedStep')}</span>,
                children: (
                  <>
                    {creating && (
                      <Form.Item label={t('agents.field.id')} name="id" extra={t('agents.field.idHelp')}>
                        <Input placeholder={t('agents.field.idPlaceholder')} data-testid="agent-id" maxLength={64} />
                      </Form.Item>
                    )}
                    <Form.Item label={t('agents.field.description')} name="description">
                      <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} data-testid="agent-description" />
                    </Form.Item>
                    <Row gutter={16}>
                      <Col span={14}>
                        <Form.Item label={t('agents.field.hostApp')} name="hostAppId" extra={t('agents.field.hostAppHelp')}>
                          <Select options={hostOptions} showSearch optionFilterProp="search" loading={overview.loading && !overview.data} data-testid="agent-host-app" />
                        </Form.Item>
                      </Col>
                      <Col span={10}>
                        <Form.Item label={t('agents.field.language')} name="language" style={{ marginBottom: 0 }}>
                          <Radio.Group
                            optionType="button"
                            options={[
                              { value: 'zh', label: t('agents.language.zh') },
                              { value: 'en', label: t('agents.language.en') },
                            ]}
                            data-testid="agent-language"
                          />
                        </Form.Item>
                      </Col>
                    </Row>
                  </>
                ),
              },
            ]}
          />
        </Form>
        {agent && (
          <>
            <Divider titlePlacement="start">{t('agents.alwaysAllow.title')}</Divider>
            <AlwaysAllowedTools agentId={agent.id} />
          </>
        )}
        {/* Sticks to the drawer's bottom edge: a sticky box stops at the scroller's padding, hence the negative offset. */}
        <Space
          style={{
            position: 'sticky',
            bottom: -token.paddingLG,
            zIndex: 2,
            width: '100%',
            marginTop: 24,
            padding: `12px 0 ${12 + token.paddingLG}px`,
            background: token.colorBgElevated,
            borderTop: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <Button type="primary" loading={saving} onClick={() => void save()} data-testid="agent-save">
            {creating ? t('agents.editor.create') : t('agents.editor.save')}
          </Button>
          <Button onClick={onCancel}>{t('agents.editor.cancel')}</Button>
        </Space>
      </Col>
      <Col xs={24} lg={11}>
        <div style={{ position: 'sticky', top: 0 }}>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {t('agents.preview.title')}
          </Typography.Title>
          <AgentPreviewPanel preview={preview.preview} loading={preview.loading} error={preview.error} showFieldErrors={touched} />
        </div>
      </Col>
    </Row>
  );
}
