import { z } from 'zod';
import type { ContributionCopies, RegistryMcpServer, RegistryPrompt } from '../../../shared/registry.js';
import type { GrantKind } from '../../registry/registryCenter.js';
import { shownUrl } from '../../mcp/config/shownUrl.js';
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

/**
 * Where a server runs, without what may be a secret (the model reads this
 * unasked): a command without its arguments (`--token …`), a remote url
 * without its path and query (hosted servers carry their key there).
 */
function whereOf(url: string): string {
  if (url.startsWith('cmd://')) {
    const [command = '', ...args] = url.slice('cmd://'.length).split(' ');
    return `cmd://${command}${args.length ? ' …' : ''}`;
  }
  if (/^https?:/i.test(url)) return shownUrl(url);
  return URL.canParse(url) ? `${new URL(url).protocol}//${new URL(url).host}` : '(not shown)';
}

// Env values may be secrets (API keys): only their names leave the host; the url only as whereOf shows it.
const serverView = (server: RegistryMcpServer, grantedTo: string[]) => ({
  id: server.id,
  providerAppId: server.providerAppId,
  name: server.name,
  url: whereOf(server.url),
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

/** The copies as the model may see them: each url only as whereOf shows it. */
const copiesView = (copies: ContributionCopies): ContributionCopies => ({ ...copies, servers: copies.servers.map((s) => ({ ...s, url: whereOf(s.url) })) });
const copiesText = (copies: ContributionCopies) => `${plural(copies.servers.length, 'server')} and ${plural(copies.prompts.length, 'prompt')} copied`;

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
      name: 'list_contribution_copies',
      description:
        "Whether plugin servers and prompts are also copied into the host's own lists (the syncAiContributes switch), and the copies there now, each with the plugin and app it is a copy of. Copies are listed for reference: they hold no grants and nothing runs from them.",
      permission: 'read',
      inputSchema: {},
      async handler(_args, ctx) {
        const copies = copiesView(ctx.plugins.copies());
        return dataResult(`syncAiContributes is ${copies.syncAiContributes ? 'on' : 'off'}: ${copiesText(copies)}.`, copies);
      },
    }),
    defineTool({
      name: 'set_sync_ai_contributes',
      description:
        "Switch the copies of plugin servers and prompts in the host's own lists on or off, for every window and command of this data home. A copy holds no grant and runs nothing, so either way no app or agent may do more.",
      permission: 'write',
      // Only what is listed changes (no grant, no server): either value is low-risk.
      lowRisk: { enabled: 'any' },
      inputSchema: { enabled: z.boolean().describe('true: copy them; false: remove the copies') },
      async handler({ enabled }, ctx) {
        const copies = copiesView(ctx.plugins.setSyncAiContributes(enabled));
        return dataResult(`syncAiContributes is now ${enabled ? 'on' : 'off'}: ${copiesText(copies)}.`, copies);
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
