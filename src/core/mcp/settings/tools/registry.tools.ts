import { z } from 'zod';
import type { RegistryMcpServer, RegistryPrompt } from '../../../../shared/registry.js';
import type { GrantKind } from '../../../registry/registryCenter.js';
import { dataResult, didYouMean, errorResult, quoted } from '../toolResults.js';
import { defineTool, type SettingsContext, type ToolModule } from '../types.js';

const forApp = z.string().optional().describe('Only what this app may see: its own registrations plus its grants. Leave out for everything.');
const appId = z.string().describe('The app that gets or loses access, e.g. "aide" (not "chatos": the owner sees everything)');
const registryId = z.string().describe('Registry id, "<providerAppId>::<name>", as list_registry_servers or list_registry_prompts shows it');

/** Which apps were granted each id. */
function grantees(ctx: SettingsContext, kind: GrantKind): Map<string, string[]> {
  const byTarget = new Map<string, string[]>();
  for (const grant of ctx.registry.listGrants(kind)) byTarget.set(grant.targetId, [...(byTarget.get(grant.targetId) ?? []), grant.appId]);
  return byTarget;
}

function unknownApp(ctx: SettingsContext, app: string) {
  return errorResult(
    `no app "${app}" is registered${didYouMean(
      app,
      ctx.registry.listApps().map((a) => a.appId),
    )}`,
  );
}

// Env values may be secrets (API keys): only their names leave the host.
const serverView = (server: RegistryMcpServer, grantedTo: string[]) => ({
  id: server.id,
  providerAppId: server.providerAppId,
  name: server.name,
  url: server.url,
  description: server.description ?? null,
  tags: server.tags,
  allowMain: server.allowMain,
  allowSub: server.allowSub,
  enabled: server.enabled,
  source: server.source.kind,
  envNames: Object.keys(server.env).sort(),
  grantedTo,
});

const promptView = (prompt: RegistryPrompt, grantedTo: string[]) => ({
  id: prompt.id,
  providerAppId: prompt.providerAppId,
  name: prompt.name,
  title: prompt.title ?? null,
  lang: prompt.lang ?? null,
  characters: prompt.content.length,
  source: prompt.source.kind,
  grantedTo,
});

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const registryModule: ToolModule = {
  domain: 'registry',
  tools: [
    defineTool({
      name: 'list_registry_servers',
      description: 'List the MCP servers in the registry (every provider app, plugins, mcp.yaml, built-in), with the apps each one is granted to. With appId: only what that app may use.',
      permission: 'read',
      inputSchema: { appId: forApp },
      async handler({ appId: app }, ctx) {
        if (app !== undefined && !ctx.registry.isKnownApp(app)) return unknownApp(ctx, app);
        const granted = grantees(ctx, 'server');
        const rows = app === undefined ? ctx.registry.listServers() : ctx.registry.getMcpServersForApp(app);
        const servers = rows.map((s) => serverView(s, granted.get(s.id) ?? []));
        return dataResult(`${plural(servers.length, 'server')}${app === undefined ? '' : ` visible to "${app}"`}.`, { ...(app === undefined ? {} : { for: app }), servers });
      },
    }),
    defineTool({
      name: 'list_registry_prompts',
      description: 'List the prompts in the registry, with the apps each one is granted to. With appId: only what that app may use.',
      permission: 'read',
      inputSchema: { appId: forApp },
      async handler({ appId: app }, ctx) {
        if (app !== undefined && !ctx.registry.isKnownApp(app)) return unknownApp(ctx, app);
        const granted = grantees(ctx, 'prompt');
        const rows = app === undefined ? ctx.registry.listPrompts() : ctx.registry.getPromptsForApp(app);
        const prompts = rows.map((p) => promptView(p, granted.get(p.id) ?? []));
        return dataResult(`${plural(prompts.length, 'prompt')}${app === undefined ? '' : ` visible to "${app}"`}.`, { ...(app === undefined ? {} : { for: app }), prompts });
      },
    }),
    defineTool({
      name: 'grant_access',
      description: "Let an app use a server or prompt it does not own, by registry id (the registry knows which it is). The app's agents may then call that server's tools. Asks the user first.",
      permission: 'confirm',
      risk: 'high',
      inputSchema: { appId, id: registryId },
      summary: ({ appId: app, id }) => `Let app ${quoted(app)} use ${quoted(id)}`,
      async handler({ appId: app, id }, ctx) {
        const kind = ctx.registry.kindOf(id);
        const outcome = kind === 'server' ? ctx.registry.grantMcpServerAccess(app, id) : ctx.registry.grantPromptAccess(app, id);
        return dataResult(outcome === 'created' ? `Granted ${kind} "${id}" to "${app}".` : `"${app}" already had ${kind} "${id}".`, { appId: app, id, kind, outcome });
      },
    }),
    defineTool({
      name: 'revoke_access',
      description: "Take back an app's access to a server or prompt, by registry id. Asks the user first.",
      permission: 'confirm',
      risk: 'medium',
      inputSchema: { appId, id: registryId },
      summary: ({ appId: app, id }) => `Stop app ${quoted(app)} from using ${quoted(id)}`,
      async handler({ appId: app, id }, ctx) {
        const kind = ctx.registry.kindOf(id);
        const revoked = kind === 'server' ? ctx.registry.revokeMcpServerAccess(app, id) : ctx.registry.revokePromptAccess(app, id);
        if (!revoked) {
          const granted = ctx.registry.listGrants(kind, app).map((g) => g.targetId);
          return errorResult(`"${app}" has no grant of ${kind} "${id}"${didYouMean(id, granted)}${granted.length ? '' : `; it has no ${kind} grants at all`}`);
        }
        return dataResult(`Revoked ${kind} "${id}" from "${app}".`, { appId: app, id, kind, revoked: true });
      },
    }),
  ],
};
