import type { HandlerContext, Handlers } from './types.js';

/** `host.chat.*` of a UI app's page: the shell names the app its frame is bound to; the core keeps the page to that app's agents. */
export function pageChatHandlers({ host, emit }: HandlerContext): Handlers<'uiApps.chat'> {
  return {
    'uiApps.chat': async ({ pluginId, appId, request }) => {
      const app = host.tools.callers.findApp(pluginId, appId);
      host.tools.callers.requireRunnable(app);
      const result = await host.chat.page({ pluginId: app.pluginId, appId: app.appId, providerAppId: app.providerAppId, name: app.name }, request);
      // The page's agents are agents like the user's: the Agents page lists them too.
      if (request.op !== 'agents.list' && (request.op.startsWith('agents.') || request.op === 'sessions.ensureDefault' || request.op === 'sessions.create')) emit({ type: 'agents.changed' });
      return result;
    },
  };
}
