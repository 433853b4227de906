import type { HandlerContext, Handlers } from './types.js';

export function registryHandlers({ host, emit }: HandlerContext): Handlers<'registry.overview' | 'registry.grant' | 'registry.revoke' | 'registry.copies' | 'registry.setSyncAiContributes'> {
  const { registry } = host;
  return {
    'registry.overview': () => {
      const apps = registry.listApps();
      const visible = Object.fromEntries(
        apps.map((app) => [app.appId, { servers: registry.getMcpServersForApp(app.appId).map((s) => s.id), prompts: registry.getPromptsForApp(app.appId).map((p) => p.id) }]),
      );
      const servers = registry.listServers();
      const prompts = registry.listPrompts();
      const notRunnable = [...registry.notRunnable(servers, 'server'), ...registry.notRunnable(prompts, 'prompt')].map(([id, refusal]) => ({ id, code: refusal.code, message: refusal.message }));
      return {
        apps,
        servers,
        prompts,
        grants: [...registry.listGrants('server').map((g) => ({ ...g, kind: 'server' as const })), ...registry.listGrants('prompt').map((g) => ({ ...g, kind: 'prompt' as const }))],
        visible,
        owner: registry.ownerAppId,
        notRunnable,
      };
    },
    'registry.grant': ({ appId, id }) => {
      const result = registry.kindOf(id) === 'server' ? registry.grantMcpServerAccess(appId, id) : registry.grantPromptAccess(appId, id);
      if (result === 'created') emit({ type: 'registry.changed' });
      return { result };
    },
    'registry.copies': () => host.plugins.contributionCopies(),
    'registry.setSyncAiContributes': ({ enabled }) => {
      const copies = host.plugins.setSyncAiContributes(enabled);
      emit({ type: 'registry.changed' });
      return copies;
    },
    'registry.revoke': ({ appId, id }) => {
      const removed = registry.kindOf(id) === 'server' ? registry.revokeMcpServerAccess(appId, id) : registry.revokePromptAccess(appId, id);
      if (removed) emit({ type: 'registry.changed' });
      return { removed };
    },
  };
}
