import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Alert, App as AntApp, Button, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppSource } from '../../../../src/shared/chat';
import { api, errorLine } from '../../api/client';
import { MessageGate } from './messageGate';
import { NewestUpdate } from './newestUpdate';
import { SandboxFrame } from './SandboxFrame';
import type { McpAppCaller, McpAppPageCaller } from './viewCaller';
import { useViewStart } from './viewStart';
import { ViewTransport } from './viewTransport';
import { downloadHandler } from './viewDownload';
import { followHostContext, hostContextOf, MAX_VIEW_HEIGHT, MIN_VIEW_HEIGHT } from './viewHostContext';
import { listForView, readForView, templatesForView } from './viewResources';
import { outcomeForView } from './viewToolResult';
import '../../i18n/load/mcpApps';

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
  /** What the conversation did not keep of the tool's result for the view (over its bounds): said above the view. */
  resultCut?: string[];
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
  const [closed, setClosed] = useState(false);
  // What the bridge's context reads now (the theme's tokens, the language), and how it is told of a change.
  const tokenNow = useRef(token);
  tokenNow.current = token;
  const hostContextChanged = useRef<(() => void) | undefined>(undefined);
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
    if (!url || !target || closed) return;
    const context = () => hostContextOf(tokenNow.current, i18n.language, frame.current?.clientWidth ?? 600, latest.current.displayMode);
    const conversation = latest.current.postToConversation ? { message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } } : {};
    // What ChatOS answers (docs/rules/mcp-apps.md#what-the-view-may-ask); sampling, prompts and logging are not offered.
    const capabilities = { openLinks: {}, downloadFile: {}, serverTools: {}, serverResources: {}, ...conversation };
    const bridge = new AppBridge(null, { name: 'ChatOS', version: '1' }, capabilities, { hostContext: context() });
    let following: ReturnType<typeof followHostContext> | undefined;
    const gate = new MessageGate();
    const source = (): AppSource => ({ kind: 'mcp-app', id: serverId, name: latest.current.serverName.slice(0, 100) || serverId });
    // Each update overwrites the one before (docs/rules/app-messages.md#context-from-an-app): only the newest goes, at most once a second.
    const contexts = new NewestUpdate<{ conversationId: string; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> }>(async (update) => {
      await api.call('chat.setAppContext', { ...update, source: source() });
    });
    bridge.oninitialized = () => {
      following ??= followHostContext(bridge, frame.current!, context);
      hostContextChanged.current = following.changed;
      const input = latest.current.toolInput;
      if (input) void bridge.sendToolInput({ arguments: input });
      const result = latest.current.toolResult;
      if (result) void bridge.sendToolResult(result);
    };
    bridge.onsizechange = ({ height: asked }) => {
      if (typeof asked === 'number' && Number.isFinite(asked)) setHeight(Math.min(MAX_VIEW_HEIGHT, Math.max(MIN_VIEW_HEIGHT, Math.ceil(asked))));
    };
    // Each request the bridge gets was let in by the gate in front of it (viewTransport.ts), and its work runs through the
    // gate too (at most 4 at once, however the view frees its ids); the core has limits of its own.
    bridge.oncalltool = (params) => gate.run(async () => outcomeForView(await callFor(caller, serverId, params.name, (params.arguments ?? {}) as Record<string, unknown>)));
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
    // Its own server's resources, through the host's resource path as the caller (viewResources.ts).
    bridge.onreadresource = ({ uri }) => gate.run(() => readForView(caller, serverId, uri));
    bridge.onlistresources = () => gate.run(() => listForView(caller, serverId));
    bridge.onlistresourcetemplates = () => gate.run(() => templatesForView(caller, serverId));
    const download = downloadHandler({
      read: (uri) => readForView(caller, serverId, uri),
      confirm: async (files) =>
        await modal.confirm({
          title: t('mcpApps.download.title', { app: source().name }),
          content: files.map((file) => `${file.name} (${file.bytes} B)`).join(', '),
          okText: t('mcpApps.download.save'),
        }),
    });
    bridge.ondownloadfile = (params) => gate.run(() => download(params));
    // The one display mode there is: the view stays in its place (viewHostContext.ts).
    bridge.onrequestdisplaymode = () => Promise.resolve({ mode: 'inline' });
    // The view asks to go: it is torn down (the cleanup below), and its place says so, with a way to show it again.
    bridge.onrequestteardown = () => setClosed(true);
    void bridge.connect(new ViewTransport(target, gate, origin!, onSignal));
    return () => {
      following?.stop();
      hostContextChanged.current = undefined;
      gate.close();
      contexts.close();
      // The view is told it goes away; the bridge closes whether or not it answers.
      void bridge
        .teardownResource({}, { timeout: 1000 })
        .catch(() => undefined)
        .finally(() => void bridge.close());
    };
  }, [url, closed]);

  // The theme or the language changed: the view is told (the bridge sends only what differs).
  useEffect(() => hostContextChanged.current?.(), [token, i18n.language]);

  if (!view) return <div className="mcp-app-frame mcp-app-loading" data-testid="mcp-app-loading" />;
  if (closed)
    return (
      <Alert
        type="info"
        showIcon
        className="mcp-app-frame"
        data-testid="mcp-app-closed"
        message={t('mcpApps.closed')}
        action={
          <Button size="small" onClick={() => setClosed(false)} data-testid="mcp-app-show-again">
            {t('mcpApps.showAgain')}
          </Button>
        }
      />
    );
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
      {props.resultCut && props.resultCut.length > 0 && <Alert type="warning" showIcon data-testid="mcp-app-result-cut" message={t('mcpApps.resultCut')} description={props.resultCut.join('; ')} />}
      {/* Above the view: a view that grows or shrinks never moves it from under the pointer. */}
      {props.onOpenBeside && (
        <div className="mcp-app-frame-actions">
          <Button size="small" type="link" onClick={props.onOpenBeside} data-testid="mcp-app-open-beside">
            {t('mcpApps.openBeside')}
          </Button>
        </div>
      )}
      <SandboxFrame
        ref={frame}
        src={view.url}
        title={t('mcpApps.frameTitle', { app: props.serverName })}
        start={start}
        style={{ width: '100%', height, border: view.prefersBorder ? `1px solid ${token.colorBorderSecondary}` : 'none', borderRadius: token.borderRadius }}
      />
    </div>
  );
}
