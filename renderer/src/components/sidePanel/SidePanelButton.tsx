import { LayoutOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/hooks';
import { CANVAS_APP, useSidePanel } from './sidePanelState';
import '../../i18n/load/sidePanel';

/**
 * The chat header's side-panel menu: open a UI app's compact page (or its
 * MCP App page) in the panel (the Canvas opens on the instance it last showed in this
 * conversation, else the default one).
 */
export function SidePanelButton({ conversationId }: { conversationId: string }) {
  const { t } = useTranslation();
  const { state, open } = useSidePanel(conversationId);
  const list = useApi('apps.list', {}, { refreshOn: ['plugins.changed', 'uiApp.changed'] });
  const runnable = new Set((list.data?.plugins ?? []).filter((p) => p.status === 'loaded' && p.runnable).map((p) => p.id));
  const apps = (list.data?.apps ?? []).filter((app) => (app.entry.compactPath || app.mcpApp) && runnable.has(app.pluginId));
  const lastInstance = state.instance ?? 'demo';

  // Closing is the panel's own button; choosing an app here opens (or reopens) the panel on it.
  const items: MenuProps['items'] = apps.map((app) => ({
    key: `${app.pluginId}/${app.appId}`,
    label: app.name,
    'data-testid': `side-panel-app-${app.pluginId}-${app.appId}`,
    onClick: () =>
      app.pluginId === CANVAS_APP.pluginId && app.appId === CANVAS_APP.appId ? open({ kind: 'canvas', instanceId: lastInstance }) : open({ kind: 'uiApp', pluginId: app.pluginId, appId: app.appId }),
  }));
  // An icon: the header already holds the title, the agent, the model and the folders.
  return (
    <Dropdown menu={{ items }} trigger={['click']}>
      <Button icon={<LayoutOutlined />} type={state.open ? 'primary' : 'default'} ghost={state.open} title={t('sidePanel.menu')} aria-label={t('sidePanel.menu')} data-testid="side-panel-menu" />
    </Dropdown>
  );
}
