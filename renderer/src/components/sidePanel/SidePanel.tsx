import { CloseOutlined, ExportOutlined } from '@ant-design/icons';
import { Button, Empty, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useApi } from '../../api/hooks';
import { McpAppFrame } from '../mcpApps/McpAppFrame';
import { McpAppPage } from '../mcpApps/McpAppPage';
import { viewOf } from '../mcpApps/openedViews';
import { UiAppFrame } from '../uiapp/UiAppFrame';
import { fullPagePath } from './fullPagePath';
import { CANVAS_APP, type SidePanelContent } from './sidePanelState';
import '../../i18n/load/sidePanel';

const WIDTH_KEY = 'chatos.sidePanel.width';
const MIN_WIDTH = 280;
const MAX_WIDTH = 900;
const DEFAULT_WIDTH = 420;
/** The Chat page's height (styles.css .chat-page) less the panel's head and padding. */
const FRAME_HEIGHT = 'calc(100vh - 56px - 52px - 64px)';

function savedWidth(): number {
  const saved = Number(localStorage.getItem(WIDTH_KEY));
  return Number.isFinite(saved) && saved >= MIN_WIDTH && saved <= MAX_WIDTH ? saved : DEFAULT_WIDTH;
}

/** The panel's width: dragged at its left edge, remembered for every conversation. */
function useResizableWidth() {
  const [width, setWidth] = useState(savedWidth);
  const drag = useRef<{ startX: number; startWidth: number }>(undefined);
  const onPointerDown = useCallback(
    (event: ReactPointerEvent<HTMLDivElement>) => {
      drag.current = { startX: event.clientX, startWidth: width };
      event.currentTarget.setPointerCapture(event.pointerId);
    },
    [width],
  );
  const onPointerMove = useCallback((event: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    // The handle is on the left edge: dragging left widens the panel.
    setWidth(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, drag.current.startWidth + drag.current.startX - event.clientX)));
  }, []);
  const onPointerUp = useCallback(() => {
    drag.current = undefined;
  }, []);
  useEffect(() => {
    localStorage.setItem(WIDTH_KEY, String(width));
  }, [width]);
  return { width, handle: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp } };
}

/** The title of what the panel shows: the app's name from the host's list, the instance id for the Canvas. */
function useTitle(content: SidePanelContent): string {
  const apps = useApi('apps.list', {}, { refreshOn: ['plugins.changed'] });
  const nameOf = (pluginId: string, appId: string) => apps.data?.apps.find((a) => a.pluginId === pluginId && a.appId === appId)?.name ?? `${pluginId}/${appId}`;
  switch (content.kind) {
    case 'canvas':
      return `${nameOf(CANVAS_APP.pluginId, CANVAS_APP.appId)} · ${content.instanceId}`;
    case 'uiApp':
      return nameOf(content.pluginId, content.appId);
    case 'mcpApp':
      return content.toolName;
  }
}

/** An app's page beside the chat: its compact module page, or its MCP App page (an MCP App has one surface). */
function UiAppPanel({ pluginId, appId, conversationId }: { pluginId: string; appId: string; conversationId: string }) {
  const apps = useApi('apps.list', {}, { refreshOn: ['plugins.changed'] });
  const app = apps.data?.apps.find((a) => a.pluginId === pluginId && a.appId === appId);
  // Which frame it gets is known once the list is: a module frame would ask for a page an MCP App has not.
  if (!apps.data) return null;
  if (app?.mcpApp)
    return (
      <div className="side-panel-mcp-app" data-testid="side-panel-mcp-app">
        <McpAppPage key={`${pluginId}/${appId}`} app={app} resourceUri={app.mcpApp.resourceUri} />
      </div>
    );
  return <UiAppFrame key={`${pluginId}/${appId}`} pluginId={pluginId} appId={appId} surface="compact" chatConversationId={conversationId} height={FRAME_HEIGHT} />;
}

function PanelBody({ content, conversationId }: { content: SidePanelContent; conversationId: string }) {
  const { t } = useTranslation();
  switch (content.kind) {
    case 'canvas':
      // One frame for every instance: switching instances re-focuses the page, it does not reload it.
      return <UiAppFrame {...CANVAS_APP} surface="compact" focus={content.instanceId} chatConversationId={conversationId} height={FRAME_HEIGHT} />;
    case 'uiApp':
      return <UiAppPanel pluginId={content.pluginId} appId={content.appId} conversationId={conversationId} />;
    case 'mcpApp': {
      // The props its tool card gave the view; after a reload they are gone until the card shows it again.
      const view = viewOf(content.callId);
      return view ? (
        <div className="side-panel-mcp-app" data-testid="side-panel-mcp-app">
          <McpAppFrame key={content.callId} {...view} />
        </div>
      ) : (
        <Empty data-testid="side-panel-mcp-app-gone" description={t('sidePanel.viewGone')} />
      );
    }
  }
}

/**
 * The side panel beside a conversation (docs/using/side-panel.md): what the
 * agent works on (a Canvas instance, an app's compact page, an MCP App),
 * beside the chat while the user goes on chatting, with "pop out" to its
 * full page and close.
 */
export default function SidePanel({ content, conversationId, onClose }: { content: SidePanelContent; conversationId: string; onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { width, handle } = useResizableWidth();
  const title = useTitle(content);
  return (
    <aside className="side-panel" style={{ width }} data-testid="side-panel" data-kind={content.kind} {...(content.kind === 'canvas' ? { 'data-instance': content.instanceId } : {})}>
      <div className="side-panel-handle" role="separator" aria-orientation="vertical" aria-label={t('sidePanel.menu')} {...handle} />
      <header className="side-panel-head">
        <Typography.Text strong ellipsis data-testid="side-panel-title">
          {title}
        </Typography.Text>
        <span className="side-panel-actions">
          <Tooltip title={t('sidePanel.popOut')}>
            <Button
              type="text"
              size="small"
              icon={<ExportOutlined />}
              aria-label={t('sidePanel.popOut')}
              onClick={() => void navigate(fullPagePath(content, conversationId))}
              data-testid="side-panel-pop-out"
            />
          </Tooltip>
          <Tooltip title={t('sidePanel.close')}>
            <Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('sidePanel.close')} onClick={onClose} data-testid="side-panel-close" />
          </Tooltip>
        </span>
      </header>
      <div className="side-panel-body">
        <PanelBody content={content} conversationId={conversationId} />
      </div>
    </aside>
  );
}
