/**
 * The frame side of the UI-app bridge (protocol: docs/plugins/pages.md#the-host-bridge and the shared
 * contract in common.md). `bridgeMain` runs inside the sandboxed frame, not
 * in Node: it is served as its own source text, so it must stay
 * self-contained (no imports, no module-level helpers) and use only what a
 * browser has. It is written as a typed function so tsc checks it; the DOM
 * types it needs are declared below because the project compiles without
 * the DOM lib.
 */

export interface BridgeConfig {
  /** The page module's url; resolved against the shell's url. */
  moduleUrl: string;
  surface: 'full' | 'compact';
}

interface BridgeElement {
  className: string;
  textContent: string | null;
  replaceChildren(...nodes: BridgeElement[]): void;
}

interface BridgeDocument {
  readonly currentScript: { readonly dataset: Record<string, string | undefined> } | null;
  readonly documentElement: { readonly dataset: Record<string, string | undefined>; readonly style: { colorScheme: string } };
  readonly baseURI: string;
  readonly body: BridgeElement | null;
  getElementById(id: string): BridgeElement | null;
  createElement(tag: string): BridgeElement;
}

interface BridgeWindow {
  readonly parent: { postMessage(message: unknown, targetOrigin: string): void };
  readonly document: BridgeDocument;
  addEventListener(type: 'message', listener: (event: { source: unknown; data: unknown }) => void): void;
  addEventListener(type: 'pagehide', listener: () => void): void;
}

type Theme = 'light' | 'dark';
type Unsubscribe = () => void;

/**
 * The page's context, as the original ChatOS hands it out: a plain object,
 * at once. It is also thenable, so pages written against the promise form
 * (`host.context.get().then(…)`, `await host.context.get()`) keep working.
 */
export interface UiAppPageContext {
  pluginId: string;
  appId: string;
  theme: Theme;
  surface: 'full' | 'compact';
  locale?: string;
  /** What the shell asks the page to show (the side panel: a Canvas instance id); later changes come as the `host.focus` event. */
  focus?: string;
  /** The frame sits beside a chat conversation (the side panel, or a page popped out of it): `host.conversation.post` reaches it. */
  besideChat?: boolean;
  bridge: { enabled: boolean };
}

/** What a page's mount function receives as `host`. */
export interface UiAppPageHost {
  bridge: { enabled: boolean };
  context: { get(): UiAppPageContext & PromiseLike<UiAppPageContext> };
  theme: { get(): Promise<Theme>; onChange(listener: (theme: Theme) => void): Unsubscribe };
  /** The registry interface for a provider app (docs/rules/registry.md#the-push-api): what it may see, and what it registers under its own app id (nothing is granted). */
  registry: {
    list(): Promise<unknown>;
    registerMcpServer(providerAppId: string, serverConfig: unknown): Promise<unknown>;
    registerPrompt(providerAppId: string, promptConfig: unknown): Promise<unknown>;
  };
  tools: { call(tool: string, args?: Record<string, unknown>): Promise<unknown> };
  backend: { invoke(method: string, params?: unknown): Promise<unknown> };
  ui: { navigate(path: string): Promise<unknown>; surface: 'full' | 'compact' };
  events: { emit(type: string, payload?: unknown): Promise<unknown>; on(type: string, listener: (payload: unknown) => void): Unsubscribe };
  /** Tells the conversation the frame sits beside what the user did (docs/plugins/pages.md#beside-a-conversation): shown as from this app. */
  conversation: { post(message: { text: string; state?: unknown }): Promise<unknown> };
  /** The original ChatOS page API for chat: this app's own agents and their conversations ("sessions"). */
  chat: {
    agents: {
      list(): Promise<unknown>;
      ensureDefault(): Promise<unknown>;
      create(payload?: Record<string, unknown>): Promise<unknown>;
      createForApp(payload?: Record<string, unknown>): Promise<unknown>;
      update(id: string, patch?: Record<string, unknown>): Promise<unknown>;
      delete(id: string): Promise<unknown>;
    };
    sessions: { list(): Promise<unknown>; ensureDefault(payload?: Record<string, unknown>): Promise<unknown>; create(payload?: Record<string, unknown>): Promise<unknown> };
    messages: { list(payload: Record<string, unknown>): Promise<unknown> };
    send(payload: Record<string, unknown>): Promise<unknown>;
    abort(payload: Record<string, unknown>): Promise<unknown>;
    events: { subscribe(filter: { sessionId?: string; types?: string[] } | undefined, listener: (payload: ChatPageEvent) => void): Unsubscribe; unsubscribe(): { ok: true } };
  };
}

/** A chat event as a page gets it (`type`: assistant_delta, message, tool_call, status), for its own conversations only. */
export interface ChatPageEvent {
  type: string;
  sessionId: string;
  [key: string]: unknown;
}

/** Reads the config the shell put on the bridge's own script tag (`uiAppShellHtml`). */
export function readBridgeConfig(): BridgeConfig {
  const data = (globalThis as unknown as BridgeWindow).document.currentScript?.dataset ?? {};
  return { moduleUrl: data.moduleUrl ?? '', surface: data.surface === 'compact' ? 'compact' : 'full' };
}

/**
 * Builds `host` over postMessage, imports the page module (with a query
 * that defeats caches, so a reloaded frame runs the edited module), mounts
 * it in `#chatos-app`, and tells the parent `ready` or `failed`. A failure
 * is also shown in the frame, in words. `importModule` is passed in so the
 * served text holds a literal `import()`, whatever tool compiled this file.
 */
export function bridgeMain(config: BridgeConfig, importModule: (url: string) => Promise<Record<string, unknown>>): void {
  const win = globalThis as unknown as BridgeWindow;
  const doc = win.document;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const themeListeners = new Set<(theme: Theme) => void>();
  const appListeners = new Map<string, Set<(payload: unknown) => void>>();
  // Chat listeners with the filter each was subscribed with; the shell sends events only while one is left.
  const chatListeners = new Map<(payload: ChatPageEvent) => void, { sessionId?: string; types?: string[] }>();
  let nextId = 1;

  const post = (message: Record<string, unknown>) => win.parent.postMessage({ chatos: 'bridge', v: 1, ...message }, '*');
  const request = (op: string, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post({ id, op, args });
    });
  const notify = <T>(listeners: Iterable<(value: T) => void> | undefined, value: T) => {
    for (const listener of [...(listeners ?? [])]) {
      try {
        listener(value);
      } catch (error) {
        console.error('a ChatOS bridge listener threw', error);
      }
    }
  };
  // Filled from the parent before the page is mounted, so context.get() can answer at once.
  const context: Omit<UiAppPageContext, 'theme'> & { theme: Theme } = { pluginId: '', appId: '', theme: 'light', surface: config.surface, bridge: { enabled: true } };
  const applyTheme = (theme: unknown) => {
    if (theme !== 'light' && theme !== 'dark') return;
    context.theme = theme;
    doc.documentElement.dataset.theme = theme;
    doc.documentElement.style.colorScheme = theme;
    notify(themeListeners, theme);
  };

  win.addEventListener('message', (event) => {
    if (event.source !== win.parent) return;
    const data = event.data as Record<string, unknown> | null;
    if (!data || typeof data !== 'object' || data.chatos !== 'bridge' || data.v !== 1) return;
    if (typeof data.id === 'number') {
      const call = pending.get(data.id);
      if (!call) return;
      pending.delete(data.id);
      if (data.ok === true) call.resolve(data.result);
      else call.reject(new Error(typeof data.message === 'string' ? data.message : 'the host refused the request'));
    } else if (data.event === 'theme') {
      applyTheme(data.payload);
    } else if (data.event === 'app' && typeof data.type === 'string') {
      notify(appListeners.get(data.type), data.payload);
    } else if (data.event === 'chat' && data.payload && typeof data.payload === 'object') {
      const payload = data.payload as ChatPageEvent;
      const wanted = [...chatListeners].filter(([, f]) => (!f.sessionId || f.sessionId === payload.sessionId) && (!f.types || f.types.includes(payload.type)));
      notify(
        wanted.map(([listener]) => listener),
        payload,
      );
    }
  });

  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  // The page's params, then the op: a page cannot name another op (or app: the shell adds that) through its params.
  const chat = (op: string, params: unknown) => request('chat', [op, isObject(params) ? params : {}]);
  const chatEvents = (on: boolean) => void request('chat.events', [on]).catch(() => undefined);
  const snapshot = () => {
    const copy = { ...context, bridge: { ...context.bridge } };
    const thenable = { ...copy } as UiAppPageContext & PromiseLike<UiAppPageContext>;
    // Not enumerable: spreading or logging the context shows the plain fields only.
    Object.defineProperty(thenable, 'then', {
      enumerable: false,
      value: (onFulfilled?: (value: UiAppPageContext) => unknown, onRejected?: (reason: unknown) => unknown) => Promise.resolve(copy).then(onFulfilled, onRejected),
    });
    return thenable;
  };

  const host: UiAppPageHost = {
    bridge: { enabled: true },
    context: { get: snapshot },
    theme: {
      get: () => request('theme.get', []) as Promise<Theme>,
      onChange(listener) {
        themeListeners.add(listener);
        return () => void themeListeners.delete(listener);
      },
    },
    registry: {
      list: () => request('registry.list', []),
      registerMcpServer: (providerAppId, serverConfig) => request('registry.registerMcpServer', [providerAppId, serverConfig]),
      registerPrompt: (providerAppId, promptConfig) => request('registry.registerPrompt', [providerAppId, promptConfig]),
    },
    tools: { call: (tool, args = {}) => request('tools.call', [tool, args]) },
    backend: { invoke: (method, params) => request('backend.invoke', [method, params]) },
    ui: { navigate: (path) => request('ui.navigate', [path]), surface: config.surface },
    conversation: { post: (message) => request('conversation.post', [isObject(message) ? message : {}]) },
    events: {
      emit: (type, payload) => request('events.emit', [type, payload]),
      on(type, listener) {
        const listeners = appListeners.get(type) ?? new Set();
        appListeners.set(type, listeners);
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    },
    chat: {
      agents: {
        list: () => chat('agents.list', {}),
        ensureDefault: () => chat('agents.ensureDefault', {}),
        create: (payload) => chat('agents.create', { agent: isObject(payload) ? payload : {} }),
        createForApp: (payload) => chat('agents.createForApp', { agent: isObject(payload) ? payload : {} }),
        update: (id, patch) => chat('agents.update', { id, patch: isObject(patch) ? patch : {} }),
        delete: (id) => chat('agents.delete', { id }),
      },
      sessions: {
        list: () => chat('sessions.list', {}),
        ensureDefault: (payload) => chat('sessions.ensureDefault', payload),
        create: (payload) => chat('sessions.create', payload),
      },
      messages: { list: (payload) => chat('messages.list', payload) },
      send: (payload) => chat('send', payload),
      abort: (payload) => chat('abort', payload),
      events: {
        subscribe(filter, listener) {
          const f = isObject(filter) ? filter : {};
          chatListeners.set(listener, {
            ...(typeof f.sessionId === 'string' && f.sessionId ? { sessionId: f.sessionId } : {}),
            ...(Array.isArray(f.types) && f.types.length ? { types: f.types.map(String) } : {}),
          });
          if (chatListeners.size === 1) chatEvents(true);
          return () => {
            if (chatListeners.delete(listener) && chatListeners.size === 0) chatEvents(false);
          };
        },
        unsubscribe() {
          if (chatListeners.size) chatEvents(false);
          chatListeners.clear();
          return { ok: true };
        },
      },
    },
  };
  Object.freeze(host);
  Object.freeze(host.chat);
  Object.freeze(host.bridge);
  Object.freeze(host.ui);
  Object.freeze(host.conversation);

  const container = doc.getElementById('chatos-app') ?? doc.body;
  const showError = (message: string) => {
    const box = doc.createElement('div');
    box.className = 'chatos-app-error';
    box.textContent = `This app's page could not be shown.\n\n${message}`;
    container?.replaceChildren(box);
  };

  let dispose: (() => void) | undefined;
  win.addEventListener('pagehide', () => {
    const current = dispose;
    dispose = undefined;
    try {
      current?.();
    } catch (error) {
      console.error('the page threw while unmounting', error);
    }
  });

  const start = async () => {
    if (!config.moduleUrl) throw new Error('the shell names no page module');
    if (!container) throw new Error('the shell has no container element');
    const given = (await request('context.get', [])) as Partial<UiAppPageContext> | null;
    if (given && typeof given === 'object') {
      if (typeof given.pluginId === 'string') context.pluginId = given.pluginId;
      if (typeof given.appId === 'string') context.appId = given.appId;
      if (typeof given.locale === 'string') context.locale = given.locale;
      if (typeof given.focus === 'string') context.focus = given.focus;
      if (given.besideChat === true) context.besideChat = true;
      applyTheme(given.theme);
    }
    const url = new URL(config.moduleUrl, doc.baseURI);
    url.searchParams.set('v', String(Date.now()));
    const mod = await importModule(url.href);
    type Mount = (props: { container: BridgeElement; host: UiAppPageHost; slots: Record<string, never> }) => unknown;
    const fallback = mod.default as { mount?: unknown } | undefined;
    const mount =
      typeof mod.mount === 'function'
        ? (mod.mount as Mount)
        : fallback && typeof fallback.mount === 'function'
          ? (fallback.mount as Mount).bind(fallback)
          : typeof fallback === 'function'
            ? (fallback as Mount)
            : undefined;
    if (!mount) throw new Error(`${config.moduleUrl} exports no mount function; export one: export function mount({ container, host }) { … }`);
    const result = (await mount({ container, host, slots: {} })) as { dispose?: unknown } | (() => void) | undefined;
    if (typeof result === 'function') dispose = result;
    else if (result && typeof result.dispose === 'function') dispose = (result.dispose as () => void).bind(result);
  };
  start().then(
    () => post({ op: 'ready' }),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      showError(message);
      post({ op: 'failed', message });
    },
  );
}

/** The bridge as the frame loads it: one classic script, no inline script in the shell. */
export function uiAppBridgeScript(): string {
  return `"use strict";\n(${bridgeMain.toString()})((${readBridgeConfig.toString()})(), (url) => import(url));\n`;
}
