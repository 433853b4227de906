import { lazy, useState } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { HashRouter, Navigate, Route, Routes } from 'react-router';
import { FrameRegistry, FrameRegistryContext } from './components/uiapp/frameRegistry';
import { AppLayout } from './shell/AppLayout';
import { QuestionsProvider } from './shell/questions';
import { PreferencesProvider, usePreferences } from './shell/preferences';
import { prefersReducedMotion, themeConfig } from './theme';

// Every page is its own chunk: the first screen loads only the layout and the page it shows.
const AppsPage = lazy(() => import('./pages/AppsPage'));
const ChatPage = lazy(() => import('./pages/ChatPage'));
const UiAppPage = lazy(() => import('./pages/UiAppPage'));
const AgentsPage = lazy(() => import('./pages/AgentsPage'));
const MemoryPage = lazy(() => import('./pages/MemoryPage'));
const SettingsPage = lazy(() => import('./pages/SettingsPage'));
const ModelsPage = lazy(() => import('./pages/ModelsPage'));
const RegistryPage = lazy(() => import('./pages/RegistryPage'));
const ServersPage = lazy(() => import('./pages/ServersPage'));
const CatalogPage = lazy(() => import('./pages/CatalogPage'));
const ServerPage = lazy(() => import('./pages/ServerPage'));
const PromptsPage = lazy(() => import('./pages/PromptsPage'));
const KnowledgePage = lazy(() => import('./pages/KnowledgePage'));
const PlaygroundPage = lazy(() => import('./pages/PlaygroundPage'));
const ProblemsPage = lazy(() => import('./pages/ProblemsPage'));
const DiagnosticsPage = lazy(() => import('./pages/DiagnosticsPage'));
const HistoryPage = lazy(() => import('./pages/HistoryPage'));
const NotFoundPage = lazy(() => import('./shell/NotFoundPage'));

// A hash router: routes work under chatos://app/ and from a static server, with no rewrites.
// Declarative routes (not the data router): nothing here loads data through the router, and it is lighter.
function AppRoutes() {
  return (
    <HashRouter>
      <Routes>
        {/* Outside the layout: a redirect is not a page, and the layout's page boundary would mark "/" ready before it goes. */}
        <Route index element={<Navigate to="/chat" replace />} />
        <Route element={<AppLayout />}>
          <Route path="chat" element={<ChatPage />} />
          <Route path="chat/:conversationId" element={<ChatPage />} />
          <Route path="apps" element={<AppsPage />} />
          <Route path="apps/:pluginId/:appId" element={<UiAppPage />} />
          <Route path="agents" element={<AgentsPage />} />
          <Route path="memory" element={<MemoryPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="models" element={<ModelsPage />} />
          <Route path="registry" element={<RegistryPage />} />
          <Route path="servers" element={<ServersPage />} />
          <Route path="servers/:serverId" element={<ServerPage />} />
          <Route path="catalog" element={<CatalogPage />} />
          {/* An assistant server's page under the route docs/rules/settings-server.md#the-management-ui names; /servers/:serverId stays as an alias. */}
          <Route path="settings/mcp-assistant/:serverId" element={<ServerPage />} />
          <Route path="prompts" element={<PromptsPage />} />
          <Route path="knowledge" element={<KnowledgePage />} />
          <Route path="playground" element={<PlaygroundPage />} />
          <Route path="problems" element={<ProblemsPage />} />
          <Route path="diagnostics" element={<DiagnosticsPage />} />
          <Route path="history" element={<HistoryPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </HashRouter>
  );
}

function ThemedApp() {
  const { theme, locale, fontSize } = usePreferences();
  const [frames] = useState(() => new FrameRegistry());
  // Read once: the setting rarely changes while the window is open, and the next start follows it.
  const [reducedMotion] = useState(prefersReducedMotion);
  return (
    <ConfigProvider theme={themeConfig(theme, reducedMotion, fontSize)} locale={locale === 'zh' ? zhCN : enUS}>
      <AntApp className="ant-app-root">
        <QuestionsProvider>
          <FrameRegistryContext.Provider value={frames}>
            <AppRoutes />
          </FrameRegistryContext.Provider>
        </QuestionsProvider>
      </AntApp>
    </ConfigProvider>
  );
}

export default function App() {
  return (
    <PreferencesProvider>
      <ThemedApp />
    </PreferencesProvider>
  );
}
