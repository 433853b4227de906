import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { Alert, Button, Spin } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { useApi, useHostEvent } from '../../api/hooks';
import { ApiErrorAlert } from '../../shell/ApiErrorAlert';
import { usePending } from '../../shell/questions';
import { usePreferences } from '../../shell/preferences';
import { isKnownRoute } from '../../shell/routes';
import { ConfirmationCard } from '../ConfirmationCard';
import { appMessageSource } from './appMessageSource';
import { answerBridgeRequest, type BoundFrame } from './bridgeHost';
import { appEvent, chatPageEvent, confirmationForPage, parseFrameMessage, replyError, replyOk, themeEvent } from './bridgeProtocol';
import { newFrameConversationId, useFrameRegistry, type RegisteredFrame } from './frameRegistry';
import '../../i18n/load/apps';

type FrameStatus = { kind: 'loading' } | { kind: 'ready' } | { kind: 'failed'; message?: string } | { kind: 'silent' };

/** A page that neither reports `ready` nor `failed` within this time gets a hint that something is off. */
const READY_TIMEOUT_MS = 15_000;
const RELOAD_DEBOUNCE_MS = 150;

function withVersion(url: string, version: number): string {
  if (version === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}v=${version}`;
}

export interface UiAppFrameProps {
  pluginId: string;
  appId: string;
  surface: 'full' | 'compact';
  /** Height of the frame itself (CSS length). */
  height: CSSProperties['height'];
  /** What the page should show (a Canvas instance id): in `host.context.get()`, and a `host.focus` event when it changes. */
  focus?: string;
  /** The chat conversation the frame sits beside (the side panel): the one its `conversation.post` messages go to. */
  chatConversationId?: string;
}

/**
 * Hosts one UI-app page: a sandboxed frame (scripts only, opaque origin) plus
 * the parent side of the bridge. The frame is bound here to (pluginId, appId);
 * whatever ids the page sends are ignored.
 */
export function UiAppFrame({ pluginId, appId, surface, height, focus, chatConversationId }: UiAppFrameProps) {
  const { t } = useTranslation();
  const { theme, locale } = usePreferences();
  const navigate = useNavigate();
  const registry = useFrameRegistry();
  const { pending, dismiss } = usePending('toolConfirmation');
  // Set by the effect that binds the frame: one conversation per mount, ended on unmount.
  const [conversationId, setConversationId] = useState<string>();
  const opened = useApi('uiApps.open', { pluginId, appId, surface }, { refreshOn: ['plugins.changed'] });
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState<FrameStatus>({ kind: 'loading' });
  const frameRef = useRef<HTMLIFrameElement>(null);
  // Bumped whenever the frame loads a new document, so answers meant for the old one are dropped.
  const generation = useRef(0);
  const live = useRef({ theme, locale, navigate, focus, chatConversationId });
  useEffect(() => {
    live.current = { theme, locale, navigate, focus, chatConversationId };
  });

  // One edit sends both `plugins.changed` and `uiApp.changed`: one reload for the burst.
  const reloadTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const reloadSoon = () => {
    clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(() => setVersion((v) => v + 1), RELOAD_DEBOUNCE_MS);
  };
  useEffect(() => () => clearTimeout(reloadTimer.current), []);
  useHostEvent('uiApp.changed', (event) => {
    if (event.pluginId === pluginId) reloadSoon();
  });
  // A call to this app's own server, from any caller (an agent, the CLI, another frame): the page may re-read what it shows.
  useHostEvent('uiApp.toolCalled', (event) => {
    if (event.pluginId !== pluginId || event.appId !== appId) return;
    // What the answer named, and whether an agent created it (the Canvas page switches to it); never who or which conversation.
    const subject = event.instanceId === undefined ? {} : { instance_id: event.instanceId, ...(event.created && event.agentId ? { created_by_agent: true } : {}) };
    frameRef.current?.contentWindow?.postMessage(appEvent('tool.called', { tool: event.tool, ok: event.ok, ...subject }), '*');
  });
  // A question about a tool of this app's own server, under the seed's event names (docs/plugins/pages.md#the-host-bridge).
  const toPage = (type: string, payload: unknown) => frameRef.current?.contentWindow?.postMessage(appEvent(type, payload), '*');
  useHostEvent('mcp:tool_confirmation_required', (event) => {
    if (event.uiApp?.pluginId === pluginId && event.uiApp.appId === appId) toPage(event.type, confirmationForPage(event.request));
  });
  useHostEvent('mcp:tool_confirmation_expired', (event) => {
    if (event.uiApp?.pluginId === pluginId && event.uiApp.appId === appId) toPage(event.type, confirmationForPage(event.request));
  });
  useHostEvent('plugins.changed', (event) => {
    // `reread` names plugin folders (or ids); the entry file tells which folder is this app's.
    const entry = opened.data?.entry;
    const ours = (item: string) => item === pluginId || (entry !== undefined && (entry.startsWith(`${item}/`) || entry.startsWith(`${item}\\`)));
    if (event.reread.some(ours) || event.removed.some(ours)) reloadSoon();
  });

  const src = opened.data ? withVersion(api.resolveUrl(opened.data.url), version) : undefined;

  useEffect(() => {
    generation.current += 1;
    setStatus({ kind: 'loading' });
    if (!src) return;
    const timer = setTimeout(() => setStatus((current) => (current.kind === 'loading' ? { kind: 'silent' } : current)), READY_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [src]);

  useEffect(() => {
    const conversation = newFrameConversationId(pluginId, appId);
    setConversationId(conversation);
    const registered: RegisteredFrame = {
      pluginId,
      appId,
      conversationId: conversation,
      deliver: (event) => frameRef.current?.contentWindow?.postMessage(event, '*'),
    };
    const unregister = registry.add(registered);
    // host.chat.events: this app's conversations only, as the host names them (its sessions.list, its chat calls' results).
    const sessions = new Set<string>();
    let chatSubscribed = false;
    let refreshing: ReturnType<typeof setTimeout> | undefined;
    const refreshSessions = () => {
      clearTimeout(refreshing);
      refreshing = setTimeout(() => {
        api.call('uiApps.chat', { pluginId, appId, request: { op: 'sessions.list' } }).then(
          (result) => {
            for (const session of (result.sessions as { id: string }[] | undefined) ?? []) sessions.add(session.id);
          },
          () => undefined, // an app that may not run any more gets nothing
        );
      }, 50);
    };
    const offChat = api.onAny((event) => {
      if (!chatSubscribed) return;
      if (event.type === 'conversations.changed') return refreshSessions();
      const forPage = chatPageEvent(event);
      if (forPage?.event === 'chat' && sessions.has(forPage.payload.sessionId)) frameRef.current?.contentWindow?.postMessage(forPage, '*');
    });
    const bound: BoundFrame = {
      pluginId,
      appId,
      surface,
      conversationId: conversation,
      theme: () => live.current.theme,
      locale: () => live.current.locale,
      focus: () => live.current.focus,
      chatConversationId: () => live.current.chatConversationId,
      postToChat: async (message) => {
        const target = live.current.chatConversationId;
        if (!target) throw new Error('conversation.post: this page is not beside a conversation');
        // The app is the frame's binding: a page cannot speak as another app, the user or the system.
        const source = appMessageSource(pluginId, appId, message.state, live.current.focus);
        return api.call('chat.postAppMessage', { conversationId: target, source, text: message.text, ...(message.state === undefined ? {} : { state: message.state }) });
      },
      navigate: (path) => {
        if (!isKnownRoute(path)) return false;
        live.current.navigate(path);
        return true;
      },
      emit: (type, payload) => {
        for (const sibling of registry.siblingsOf(registered)) sibling.deliver(appEvent(type, payload));
      },
      chatEvents: (on) => {
        chatSubscribed = on;
        if (on) refreshSessions();
      },
      learnSessions: (ids) => ids.forEach((id) => sessions.add(id)),
    };

    const onMessage = (event: MessageEvent) => {
      const target = frameRef.current?.contentWindow;
      // Only our own frame; its origin is opaque ("null"), so the source window is the one check that means something.
      if (!target || event.source !== target) return;
      const message = parseFrameMessage(event.data);
      if (!message) return;
      if (message.kind === 'ready') return setStatus({ kind: 'ready' });
      if (message.kind === 'failed') return setStatus({ kind: 'failed', message: message.message });
      const asked = generation.current;
      answerBridgeRequest(bound, message.op, message.args).then(
        (result) => asked === generation.current && target.postMessage(replyOk(message.id, result), '*'),
        (error: unknown) => asked === generation.current && target.postMessage(replyError(message.id, error instanceof Error ? error.message : String(error)), '*'),
      );
    };
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
      offChat();
      clearTimeout(refreshing);
      unregister();
      // Releases the app's server lease and any "approve for this conversation"; best effort (the host may be gone).
      api.call('conversations.end', { conversationId: conversation }).catch(() => undefined);
    };
  }, [pluginId, appId, surface, registry]);

  useEffect(() => {
    frameRef.current?.contentWindow?.postMessage(themeEvent(theme), '*');
  }, [theme]);

  // A new focus for the page already open (the agent changed another instance): told, not reloaded.
  useEffect(() => {
    if (focus !== undefined) frameRef.current?.contentWindow?.postMessage(appEvent('host.focus', { focus }), '*');
  }, [focus]);

  const mine = conversationId ? pending.filter((request) => request.conversationId === conversationId) : [];

  return (
    <div className="uiapp-host" data-testid="uiapp-host">
      {mine.map((request) => (
        <div key={request.id} className="uiapp-confirmation">
          <ConfirmationCard request={request} onAnswered={() => dismiss(request.id)} />
        </div>
      ))}
      {opened.error ? <ApiErrorAlert error={opened.error} onRetry={() => void opened.reload()} title={t('apps.frame.openFailed')} /> : null}
      {status.kind === 'failed' ? (
        <Alert
          type="error"
          showIcon
          data-testid="uiapp-failed"
          title={t('apps.frame.failed')}
          description={<pre className="uiapp-error">{status.message ?? t('apps.frame.noDetails')}</pre>}
          action={
            <Button size="small" icon={<ReloadOutlined />} onClick={() => setVersion((v) => v + 1)}>
              {t('apps.frame.reload')}
            </Button>
          }
        />
      ) : null}
      {status.kind === 'silent' ? <Alert type="info" showIcon title={t('apps.frame.silent')} /> : null}
      {src ? (
        <Spin spinning={status.kind === 'loading'} description={t('apps.frame.loading')}>
          <iframe
            ref={frameRef}
            className="uiapp-frame"
            title={`${pluginId}/${appId}`}
            sandbox="allow-scripts"
            referrerPolicy="no-referrer"
            src={src}
            data-testid="uiapp-frame"
            data-status={status.kind}
            style={{ height }}
          />
        </Spin>
      ) : opened.loading ? (
        <div className="uiapp-placeholder" style={{ height }}>
          <Spin />
        </div>
      ) : null}
    </div>
  );
}
