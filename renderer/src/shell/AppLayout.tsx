import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Layout, Menu } from 'antd';
import {
  ApartmentOutlined,
  AppstoreOutlined,
  BookOutlined,
  ProfileOutlined,
  CloudServerOutlined,
  DatabaseOutlined,
  DeploymentUnitOutlined,
  ExperimentOutlined,
  MedicineBoxOutlined,
  HistoryOutlined,
  MessageOutlined,
  RobotOutlined,
  SlidersOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { ConnectionBanner } from './ConnectionBanner';
import { DevReloadNotices } from './DevReloadNotices';
import { GlobalConfirmations } from './GlobalConfirmations';
import { GlobalElicitations } from './GlobalElicitations';
import { HeaderBar } from './HeaderBar';
import { OpenedBundles } from './OpenedBundles';
import { SECTION_KEYS, type SectionKey } from './sections';
import { PageBoundary } from './PageBoundary';

// The keyboard's listener loads just after the first screen (it is not part of what the window must load to show a page);
// it marks <html data-keys-ready> once listening (docs/using/keyboard.md).
const KeyboardShortcuts = lazy(() => import('./keys/KeyboardShortcuts'));

const ICONS: Record<SectionKey, ReactNode> = {
  chat: <MessageOutlined />,
  apps: <AppstoreOutlined />,
  agents: <RobotOutlined />,
  memory: <ProfileOutlined />,
  models: <DeploymentUnitOutlined />,
  registry: <ApartmentOutlined />,
  servers: <CloudServerOutlined />,
  catalog: <CloudServerOutlined />,
  prompts: <BookOutlined />,
  knowledge: <DatabaseOutlined />,
  playground: <ExperimentOutlined />,
  history: <HistoryOutlined />,
  problems: <WarningOutlined />,
  diagnostics: <MedicineBoxOutlined />,
  settings: <SlidersOutlined />,
};

// Sider and Menu stay on antd's "light" variant: with the dark algorithm that renders the same neutral dark
// as the rest of the page (the "dark" variant is antd's navy, which clashes with it).

/** The frame around every page: side menu, header with counts and switches, the global confirmations and servers' questions. */
export function AppLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState(false);
  // An assistant server's page (/settings/mcp-assistant/:id) belongs to the MCP servers section.
  const section = pathname.startsWith('/settings/mcp-assistant/') ? 'servers' : pathname.split('/')[1] || 'apps';

  return (
    <Layout className="app-root">
      <Suspense fallback={null}>
        <KeyboardShortcuts />
      </Suspense>
      <Layout.Sider theme="light" collapsible collapsed={collapsed} onCollapse={setCollapsed} breakpoint="lg" width={208} className="app-sider">
        <div className="app-brand" data-testid="brand">
          <span className="app-brand-mark">C</span>
          {collapsed ? null : <span className="app-brand-name">ChatOS</span>}
        </div>
        <Menu
          mode="inline"
          selectedKeys={[section]}
          onClick={({ key }) => navigate(`/${key}`)}
          items={SECTION_KEYS.map((key) => ({ key, icon: ICONS[key], label: <span data-testid={`nav-${key}`}>{t(`common.nav.${key}`)}</span> }))}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="app-header">
          <HeaderBar title={t(`common.nav.${section}`, { defaultValue: 'ChatOS' })} />
        </Layout.Header>
        <ConnectionBanner />
        <Layout.Content className="app-content">
          <GlobalConfirmations />
          <GlobalElicitations />
          <DevReloadNotices />
          <OpenedBundles />
          {/* One boundary per page; the Chat page keeps its own across conversations (its list stays as it is). */}
          <PageBoundary key={section === 'chat' ? '/chat' : pathname} route={pathname}>
            <Outlet />
          </PageBoundary>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
