import { Button, Descriptions, Segmented, Select, Space, Tag, Typography } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SettingsView } from '../../../../src/shared/settings';
import { toApiError } from '../../api/client';
import { useApi } from '../../api/hooks';
import { hostText } from '../../i18n/hostText';
import { DEFAULT_FONT_SIZE, usePreferences } from '../../shell/preferences';
import '../../i18n/load/settings';

/** What a setting's control gets: the page's view of the settings and a way to say a change was refused. */
interface ItemContext {
  view: SettingsView;
  notify: MessageInstance;
}

/** One line of the Settings page: its label and help (text keys), more words it is found by, its control. */
export interface SettingItem {
  id: string;
  label: string;
  help?: string;
  words?: string;
  render(context: ItemContext): ReactNode;
}

interface SettingSection {
  id: string;
  title: string;
  items: SettingItem[];
}

const FONT_SIZES = [12, 13, 14, 15, 16, 18, 20];

/** Changes one setting in the core; a refusal (the core's check) is said in the user's language. */
function useChange(notify: MessageInstance) {
  const { changeSettings } = usePreferences();
  return (patch: Record<string, unknown>) =>
    changeSettings(patch).catch((error: unknown) => {
      const said = hostText(toApiError(error));
      void notify.error(said.hint ? `${said.message} ${said.hint}` : said.message);
    });
}

function LanguageControl() {
  const { locale, setLocale } = usePreferences();
  return (
    <Segmented
      value={locale}
      onChange={(value) => setLocale(value as 'zh' | 'en')}
      options={[
        { label: '中文', value: 'zh' },
        { label: 'English', value: 'en' },
      ]}
      data-testid="settings-language"
    />
  );
}

function ThemeControl() {
  const { t } = useTranslation();
  const { theme, setTheme } = usePreferences();
  return (
    <Segmented
      value={theme}
      onChange={(value) => setTheme(value as 'light' | 'dark')}
      options={[
        { label: t('settings.theme.light'), value: 'light' },
        { label: t('settings.theme.dark'), value: 'dark' },
      ]}
      data-testid="settings-theme"
    />
  );
}

function FontSizeControl({ notify }: ItemContext) {
  const { fontSize } = usePreferences();
  const change = useChange(notify);
  return (
    <Select
      style={{ width: 120 }}
      value={fontSize}
      onChange={(size) => void change({ fontSize: size === DEFAULT_FONT_SIZE ? null : size })}
      options={FONT_SIZES.map((size) => ({ value: size, label: `${size} px` }))}
      data-testid="settings-font-size"
    />
  );
}

/** A choice among the agents or models, cleared back to the default. */
function RefControl({
  notify,
  field,
  kind,
  embeddingOnly = false,
}: ItemContext & { field: 'defaultAgentId' | 'defaultModelId' | 'memoryEmbeddingModel'; kind: 'agents' | 'models'; embeddingOnly?: boolean }) {
  const { t } = useTranslation();
  const { settings } = usePreferences();
  const change = useChange(notify);
  const agents = useApi('agents.list', {}, { refreshOn: ['agents.changed'], skip: kind !== 'agents' });
  const models = useApi('models.list', {}, { refreshOn: ['models.changed'], skip: kind !== 'models' });
  const options =
    kind === 'agents'
      ? (agents.data?.agents ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.id})` }))
      : (models.data?.models ?? []).filter((m) => !embeddingOnly || m.api === 'openai' || m.api === 'openai-responses').map((m) => ({ value: m.id, label: `${m.name} (${m.id})` }));
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      style={{ width: 280 }}
      placeholder={t(`settings.${field}.none`)}
      value={settings[field]}
      onChange={(value: string | undefined) => void change({ [field]: value ?? null })}
      options={options}
      data-testid={`settings-${field}`}
    />
  );
}

function DataHome({ view }: ItemContext) {
  return (
    <Typography.Text code copyable data-testid="settings-home">
      {view.home}
    </Typography.Text>
  );
}

function Updates({ view }: ItemContext) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size={2}>
      <Typography.Text data-testid="settings-version">{t('settings.updates.version', { version: view.version })}</Typography.Text>
      <Typography.Text type="secondary">{t('settings.updates.how')}</Typography.Text>
    </Space>
  );
}

/** What leaves the machine, and to where: each model entry's server (from the entries themselves), then the rest in words. */
function Privacy() {
  const { t } = useTranslation();
  const models = useApi('models.list', {}, { refreshOn: ['models.changed'] });
  const hostOf = (url: string) => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  };
  return (
    <ul className="settings-privacy" data-testid="settings-privacy">
      {(models.data?.models ?? []).map((m) => (
        <li key={m.id}>{t('settings.privacy.model', { name: m.name, host: hostOf(m.baseUrl) })}</li>
      ))}
      <li>{t('settings.privacy.servers')}</li>
      <li>{t('settings.privacy.fetch')}</li>
      <li>{t('settings.privacy.nothingElse')}</li>
    </ul>
  );
}

function BuiltinTools() {
  const { t, i18n } = useTranslation();
  const builtins = useApi('mcpServers.builtins', {}, { refreshOn: ['mcp.reloaded'] });
  return (
    <Space wrap data-testid="settings-builtins">
      {(builtins.data?.builtins ?? []).map((b) => (
        <Tag key={b.name} color={b.enabled ? 'green' : undefined}>
          {i18n.language === 'zh' ? b.title.zh : b.title.en} · {b.enabled ? t('settings.builtins.on') : t('settings.builtins.off')}
        </Tag>
      ))}
      <Link to="/servers?tab=builtin">{t('settings.builtins.manage')}</Link>
    </Space>
  );
}

function Limits({ view }: ItemContext) {
  const { t } = useTranslation();
  return (
    <Descriptions size="small" column={1} data-testid="settings-limits">
      <Descriptions.Item label={t('settings.limits.memoryChars')}>{view.limits.memoryChars}</Descriptions.Item>
      <Descriptions.Item label={t('settings.limits.memoriesPerAgent')}>{view.limits.memoriesPerAgent}</Descriptions.Item>
      <Descriptions.Item label={t('settings.limits.memoryQueryChars')}>{view.limits.memoryQueryChars}</Descriptions.Item>
    </Descriptions>
  );
}

const OWNERS = ['models', 'agents', 'servers', 'registry', 'knowledge', 'prompts', 'diagnostics'] as const;

function Owners() {
  const { t } = useTranslation();
  return (
    <Space wrap data-testid="settings-owners">
      {OWNERS.map((key) => (
        <Link key={key} to={`/${key}`}>
          <Button size="small">{t(`common.nav.${key}`)}</Button>
        </Link>
      ))}
    </Space>
  );
}

/** The Settings page's sections, in order (docs/using/settings.md). */
export const SETTING_SECTIONS: readonly SettingSection[] = [
  {
    id: 'appearance',
    title: 'settings.section.appearance',
    items: [
      { id: 'language', label: 'settings.language', words: 'language 语言 中文 english', render: () => <LanguageControl /> },
      { id: 'theme', label: 'settings.theme', words: 'theme dark light 主题 深色 浅色', render: () => <ThemeControl /> },
      { id: 'fontSize', label: 'settings.fontSize', words: 'font size 字号 字体', render: (c) => <FontSizeControl {...c} /> },
    ],
  },
  {
    id: 'defaults',
    title: 'settings.section.defaults',
    items: [
      { id: 'defaultAgent', label: 'settings.defaultAgentId', help: 'settings.defaultAgentId.help', render: (c) => <RefControl {...c} field="defaultAgentId" kind="agents" /> },
      { id: 'defaultModel', label: 'settings.defaultModelId', help: 'settings.defaultModelId.help', render: (c) => <RefControl {...c} field="defaultModelId" kind="models" /> },
      {
        id: 'memoryModel',
        label: 'settings.memoryEmbeddingModel',
        help: 'settings.memoryEmbeddingModel.help',
        words: 'memory embedding 记忆 嵌入',
        render: (c) => <RefControl {...c} field="memoryEmbeddingModel" kind="models" embeddingOnly />,
      },
    ],
  },
  {
    id: 'data',
    title: 'settings.section.data',
    items: [
      { id: 'home', label: 'settings.home', help: 'settings.home.help', words: 'data home folder 目录 数据', render: (c) => <DataHome {...c} /> },
      { id: 'updates', label: 'settings.updates', words: 'update version 更新 版本', render: (c) => <Updates {...c} /> },
      { id: 'privacy', label: 'settings.privacy', help: 'settings.privacy.help', words: 'privacy network telemetry 隐私 网络', render: () => <Privacy /> },
    ],
  },
  {
    id: 'tools',
    title: 'settings.section.tools',
    items: [
      { id: 'builtins', label: 'settings.builtins', words: 'built-in tools 内置 工具', render: () => <BuiltinTools /> },
      { id: 'limits', label: 'settings.limits', help: 'settings.limits.help', words: 'advanced limits 高级 限制', render: (c) => <Limits {...c} /> },
      { id: 'owners', label: 'settings.owners', help: 'settings.owners.help', render: () => <Owners /> },
    ],
  },
];
