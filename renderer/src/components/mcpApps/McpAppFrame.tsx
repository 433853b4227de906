import { AppBridge, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Alert, App as AntApp, Button, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppSource } from '../../../../src/shared/chat';
import type { ToolOutcome } from '../../../../src/shared/hostApi';
import { api, errorLine } from '../../api/client';
import { MessageGate } from './messageGate';
import { NewestUpdate } from './newestUpdate';
import { SandboxFrame } from './SandboxFrame';
import { useViewStart } from './viewStart';
import { ViewTransport } from './viewTransport';
import '../../i18n/load/mcpApps';

/** Who the view acts for: the caller the tool card's tools came from (a conversation's agent, or the Playground's). */
export interface McpAppCaller {
  agentId: string;
  flow: 'main' | 'sub';
  conversationId: string;
}

/** An app's own page that is an MCP App (docs/plugins/pages.md#a-page-that-is-an-mcp-app): the app is the caller, in the page's own conversation. */
export interface McpAppPageCaller {
  pluginId: string;
  appId: string;
  conversationId: string;
}

export interface McpAppFrameProps {
  caller: McpAppCaller | McpAppPageCaller;
  serverId: string;
  /** The server's own name, shown as the app's. */
  serverName: string;
  /** The tool's name as the server knows it (none for an app's page). */
  toolName?: string;
  resourceUri: string;
  /** Sent once the view is initialized; an app's page has no tool call, so none. */
  toolInput?: Record<string, unknown>;
  toolResult?: CallToolResult;
  displayMode?: 'inline' | 'fullscreen' | 'pip';
  /** The view's `ui/message`s and context updates go into this conversation (absent in the Playground: refused there). */
  postToConversation?: string;
  /** "Open beside the chat": shown only when given (the side panel wires it). */
  onOpenBeside?: () => void;
}

/** The view read for its caller: a tool's view for an agent's, or the app's own page for the app (its server and view are the app's). */
const readView = (caller: McpAppCaller | McpAppPageCaller, serverId: string, uri: string) =>
  'pluginId' in caller ? api.call('uiApps.mcpAppView', caller) : api.call('mcpApps.view', { ...caller, serverId, uri });

/** A `tools/call` of the view, through the gateway as its caller. */
const callFor = (caller: McpAppCaller | McpAppPageCaller, serverId: string, tool: string, args: Record<string, unknown>) =>
  'pluginId' in caller ? api.call('uiApps.mcpAppCall', { ...caller, tool, args }) : api.call('mcpApps.callTool', { ...caller, serverId, tool, args });

const MIN_HEIGHT = 60;
const MAX_HEIGHT = 800;

/** A gateway outcome as the MCP result an app expects back from `tools/call`. */
function callResult(outcome: ToolOutcome): CallToolResult {
  const content = outcome.content.map((item) =>
    item.type === 'text'
      ? { type: 'text' as const, text: item.text }
      : item.type === 'artifact'
        ? { type: 'text' as const, text: `[${item.mimeType} saved]` }
        : (item.json as CallToolResult['content'][number]),
  );
  const declined = outcome.decision === 'declined' || outcome.decision === 'expired' || outcome.decision === 'withdrawn';
  return { content, isError: outcome.isError || declined, ...(outcome.structuredContent ? { structuredContent: outcome.structuredContent } : {}) };
}

/**
 * An MCP App's view (docs/rules/mcp-apps.md#the-frame): its `ui://` resource,
 * read by the host for the caller, framed by its sandbox proxy at a site of
 * its own (SandboxFrame.tsx), served under the CSP the view declared. The
 * host side of the contract is ext-apps' AppBridge over a gated transport
 * (viewTransport.ts): it answers only the frame's own window, a flood gets
 * refusals at once, and each of its handlers goes to the core (calls
 * through the gateway, messages as the app's), so nothing the view asks
 * bypasses the caller's grants.
 */
export function McpAppFrame(props: McpAppFrameProps) {
  const { t, i18n } = useTranslation();
  const { modal } = AntApp.useApp();
  const { token } = theme.useToken();
  const frame = useRef<HTMLIFrameElement>(null);
  const [view, setView] = useState<{ url: string; origin: string; prefersBorder: boolean; dropped: string[] } | { error: string } | undefined>();
  const [height, setHeight] = useState(200);
  const { caller, serverId, resourceUri } = props;
  const callerKey = JSON.stringify(caller);
  // The latest props for the bridge's handlers, which live as long as the frame.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    let live = true;
    readView(caller, serverId, resourceUri)
      .then(({ url, origin, prefersBorder, dropped }) => live && setView({ url, origin, prefersBorder, dropped }))
      .catch((error: unknown) => live && setView({ error: errorLine(error) }));
    return () => {
      live = false;
    };
  }, [callerKey, serverId, resourceUri]);

  const url = view && 'url' in view ? view.url : undefined;
  // The origin of the view's site: the one its frame's messages are taken from (viewTransport.ts).
  const origin = view && 'url' in view ? view.origin : undefined;
  const [start, onSignal] = useViewStart(url);
  useEffect(() => {
    const target = frame.current?.contentWindow;
    if (!url || !target) return;
    const width = frame.current?.clientWidth ?? 600;
    const hostContext: McpUiHostContext = {
      theme: document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light',
      styles: {
        variables: {
          '--color-background-primary': token.colorBgContainer,
          '--color-text-primary': token.colorText,
          '--color-text-secondary': token.colorTextSecondary,
          '--color-border-primary': token.colorBorder,
          '--font-sans': token.fontFamily,
          '--font-mono': token.fontFamilyCode,
          '--border-radius-md': `${token.borderRadius}px`,
        } as NonNullable<McpUiHostContext['styles']>['variables'],
      },
      displayMode: latest.current.displayMode ?? 'inline',
      availableDisplayModes: ['inline'],
      containerDimensions: { width, maxHeight: MAX_HEIGHT },
      locale: i18n.language,
      platform: 'web',
    };
    const conversation = latest.current.postToConversation ? { message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } } : {};
    const bridge = new AppBridge(null, { name: 'ChatOS', version: '1' }, { openLinks: {}, serverTools: {}, ...conversation }, { hostContext });
    const gate = new MessageGate();
    const source = (): AppSource => ({ kind: 'mcp-app', id: serverId, name: latest.current.serverName.slice(0, 100) || serverId });
    // Each update overwrites the one before (docs/rules/app-messages.md#context-from-an-app): only the newest goes, at most once a second.
    const contexts = new NewestUpdate<{ conversationId: string; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> }>(async (update) => {
      await api.call('chat.setAppContext', { ...update, source: source() });
    });
    bridge.oninitialized = () => {
      const input = latest.current.toolInput;
      if (input) void bridge.sendToolInput({ arguments: input });
      const result = latest.current.toolResult;
      if (result) void bridge.sendToolResult(result);
    };
    bridge.onsizechange = ({ height: asked }) => {
      if (typeof asked === 'number' && Number.isFinite(asked)) setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(asked))));
    };
    // Each request the bridge gets was let in by the gate in front of it (viewTransport.ts), and its work runs through the
    // gate too (at most 4 at once, however the view frees its ids); the core has limits of its own.
    bridge.oncalltool = (params) => gate.run(async () => callResult(await callFor(caller, serverId, params.name, (params.arguments ?? {}) as Record<string, unknown>)));
    bridge.onmessage = (params) =>
      gate.run(async () => {
        const conversationId = latest.current.postToConversation;
        if (!conversationId) return { isError: true };
        // The context the view set before its message goes with it.
        await contexts.flush();
        const text = params.content
          .flatMap((block) => (block.type === 'text' ? [block.text] : []))
          .join('\n')
          .slice(0, 200_000);
        // Whatever role the view claims, the message is the app's (docs/rules/app-messages.md).
        await api.call('chat.postAppMessage', { conversationId, source: source(), text });
        return {};
      });
    bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
      const conversationId = latest.current.postToConversation;
      if (!conversationId) throw new Error('this view is not in a conversation');
      // Only what the core keeps crosses: a text block's text, any other block's type.
      const blocks = (content ?? []).slice(0, 1000).map((block) => (block.type === 'text' ? { type: 'text', text: block.text.slice(0, 200_000) } : { type: String(block.type).slice(0, 100) }));
      await contexts.push({ conversationId, content: blocks, ...(structuredContent ? { structuredContent } : {}) });
      return {};
    };
    // One question to open a link at a time: a view asking again meanwhile is refused, never a stack of dialogs.
    let askingToOpen = false;
    bridge.onopenlink = ({ url: link }) =>
      gate.run(async () => {
        if (askingToOpen) return { isError: true };
        let parsed: URL | undefined;
        try {
          parsed = new URL(link);
        } catch {
          parsed = undefined;
        }
        if (parsed?.protocol !== 'https:') return { isError: true };
        askingToOpen = true;
        try {
          const approved = await modal.confirm({ title: t('mcpApps.openLink.title', { app: source().name }), content: parsed.href, okText: t('mcpApps.openLink.open') });
          if (!approved) return { isError: true };
        } finally {
          askingToOpen = false;
        }
        window.open(parsed.href, '_blank', 'noopener,noreferrer');
        return {};
      });
    void bridge.connect(new ViewTransport(target, gate, origin!, onSignal));
    return () => {
      gate.close();
      contexts.close();
      // The view is told it goes away; the bridge closes whether or not it answers.
      void bridge
        .teardownResource({}, { timeout: 1000 })
        .catch(() => undefined)
        .finally(() => void bridge.close());
    };
  }, [url]);

  if (!view) return <div className="mcp-app-frame mcp-app-loading" data-testid="mcp-app-loading" />;
  if ('error' in view)
    return (
      <Alert
        type="warning"
        showIcon
        className="mcp-app-frame"
        data-testid="mcp-app-error"
        message={t('pluginId' in caller ? 'mcpApps.cannotShowPage' : 'mcpApps.cannotShow')}
        description={view.error}
      />
    );
  return (
    <div className="mcp-app-frame" data-testid="mcp-app" data-server={serverId}>
      {view.dropped.length > 0 && <Alert type="info" showIcon data-testid="mcp-app-csp-dropped" message={t('mcpApps.cspDropped')} description={view.dropped.join(', ')} />}
      <SandboxFrame
        ref={frame}
        src={view.url}
        title={t('mcpApps.frameTitle', { app: props.serverName })}
        start={start}
        style={{ width: '100%', height, border: view.prefersBorder ? `1px solid ${token.colorBorderSecondary}` : 'none', borderRadius: token.borderRadius }}
      />
      {props.onOpenBeside && (
        <Button size="small" type="link" onClick={props.onOpenBeside} data-testid="mcp-app-open-beside">
          {t('mcpApps.openBeside')}
        </Button>
      )}
    </div>
  );
}
