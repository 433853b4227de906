import type { Locale } from '../../i18n';
import type { HostApiParams } from '../../../../src/shared/hostApi';
import { api, ApiError } from '../../api/client';
import type { Theme } from './bridgeProtocol';

/** What the shell knows about one frame; the ids are the shell's binding, never the frame's claim. */
export interface BoundFrame {
  pluginId: string;
  appId: string;
  surface: 'full' | 'compact';
  conversationId: string;
  theme(): Theme;
  locale(): Locale;
  /** What the shell asks the page to show (a Canvas instance), if anything. */
  focus(): string | undefined;
  /** The chat conversation the frame sits beside, if any: the only one `conversation.post` reaches. */
  chatConversationId(): string | undefined;
  /** Puts the page's message into that conversation, as from this app (the core bounds and rate-limits it). */
  postToChat(message: { text: string; state?: unknown }): Promise<unknown>;
  /** Navigates the host UI; false when the path is not one of its routes. */
  navigate(path: string): boolean;
  /** Delivers an app event to the other open frames of the same app. */
  emit(type: string, payload: unknown): void;
  /** Starts or stops passing this app's chat events to the frame (`host.chat.events`). */
  chatEvents(on: boolean): void;
  /** Conversations the host said are this app's (from its chat calls' results): their events may reach the frame. */
  learnSessions(ids: string[]): void;
}

/** The session ids a page-chat result names (a session, a list of them, a sent message's). */
function sessionIdsIn(result: Record<string, unknown>): string[] {
  const ids: string[] = [];
  const take = (value: unknown) => {
    if (typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string') ids.push((value as { id: string }).id);
  };
  take(result.session);
  if (Array.isArray(result.sessions)) result.sessions.forEach(take);
  if (typeof result.sessionId === 'string') ids.push(result.sessionId);
  return ids;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new Error(`${what} must be a non-empty string`);
  return value;
}

/** Answers one request from a frame; throws an Error whose message goes back to the page. */
export async function answerBridgeRequest(frame: BoundFrame, op: string, args: unknown[]): Promise<unknown> {
  switch (op) {
    case 'context.get':
      return {
        pluginId: frame.pluginId,
        appId: frame.appId,
        theme: frame.theme(),
        surface: frame.surface,
        locale: frame.locale(),
        ...(frame.focus() === undefined ? {} : { focus: frame.focus() }),
        besideChat: frame.chatConversationId() !== undefined,
        bridge: { enabled: true },
      };
    case 'registry.list':
      // Scoped in the core to what this frame's app may see; the frame names no app of its own.
      return callHost(() => api.call('uiApps.registry', { pluginId: frame.pluginId, appId: frame.appId }));
    case 'registry.registerMcpServer':
    case 'registry.registerPrompt': {
      // The app is the frame's binding; the provider id and config are the page's, checked in the core.
      const providerAppId = requireString(args[0], `${op}: the provider app id (argument 1)`);
      const { pluginId, appId } = frame;
      return op === 'registry.registerMcpServer'
        ? callHost(() => api.call('uiApps.registerMcpServer', { pluginId, appId, providerAppId, server: args[1] ?? null }))
        : callHost(() => api.call('uiApps.registerPrompt', { pluginId, appId, providerAppId, prompt: args[1] ?? null }));
    }
    case 'theme.get':
      return frame.theme();
    case 'tools.call': {
      const tool = requireString(args[0], 'tools.call: the tool name (argument 1)');
      const toolArgs = args[1] ?? {};
      if (!isPlainObject(toolArgs)) throw new Error('tools.call: the arguments (argument 2) must be an object');
      return callHost(() => api.call('uiApps.callTool', { pluginId: frame.pluginId, appId: frame.appId, tool, args: toolArgs, conversationId: frame.conversationId }));
    }
    case 'backend.invoke': {
      const method = requireString(args[0], 'backend.invoke: the method (argument 1)');
      const reply = await callHost(() => api.call('uiApps.invokeBackend', { pluginId: frame.pluginId, appId: frame.appId, method, params: args[1] }));
      if (!reply.ok) throw new Error(reply.message);
      return reply.result;
    }
    case 'ui.navigate': {
      const path = requireString(args[0], 'ui.navigate: the path (argument 1)');
      if (!frame.navigate(path)) throw new Error(`ui.navigate: "${path}" is not a page of the host`);
      return null;
    }
    case 'chat': {
      const chatOp = requireString(args[0], 'chat: the operation');
      const params = isPlainObject(args[1]) ? args[1] : {};
      // The op last: a page's params never choose another one. The app is the frame's binding, never the page's claim.
      const request = { ...params, op: chatOp } as HostApiParams<'uiApps.chat'>['request'];
      const result = await callHost(() => api.call('uiApps.chat', { pluginId: frame.pluginId, appId: frame.appId, request }));
      frame.learnSessions(sessionIdsIn(result));
      return result;
    }
    case 'chat.events':
      frame.chatEvents(args[0] === true);
      return null;
    case 'conversation.post': {
      const message = isPlainObject(args[0]) ? args[0] : {};
      const text = requireString(message.text, 'conversation.post: the message text');
      return frame.postToChat(message.state === undefined ? { text } : { text, state: message.state });
    }
    case 'events.emit': {
      const type = requireString(args[0], 'events.emit: the event type (argument 1)');
      frame.emit(type, args[1] ?? null);
      return null;
    }
    default:
      throw new Error(`unknown bridge op "${op}"`);
  }
}

/** Host errors reach the page as one readable line (message plus the hint how to fix it). */
async function callHost<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) throw new Error(error.hint ? `${error.message} (${error.hint})` : error.message);
    throw error;
  }
}
