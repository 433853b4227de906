import type { HandlerContext, Handlers } from './types.js';

/**
 * The MCP servers page's edits of mcp.yaml: thin, every rule is the core's
 * (host.mcp.admin), the same operations `chatos mcp` runs. A write reloads
 * the servers at once, which sends `mcp.reloaded`.
 */
export function mcpServerHandlers({
  host,
  emit,
  openExternal,
}: HandlerContext): Handlers<
  | 'mcpServers.list'
  | 'mcpServers.add'
  | 'mcpServers.update'
  | 'mcpServers.remove'
  | 'mcpServers.setDisabled'
  | 'mcpServers.test'
  | 'mcpServers.importPlan'
  | 'mcpServers.importApply'
  | 'mcpServers.templates'
  | 'mcpServers.addTemplate'
  | 'mcpServers.builtins'
  | 'mcpServers.setBuiltin'
  | 'mcpServers.signIn'
  | 'mcpServers.cancelSignIn'
  | 'mcpServers.signOut'
> {
  const admin = host.mcp.admin;
  // Registrations of added servers are written to the admin DB before the face says so.
  const saved = async <T>(result: T) => {
    await host.save();
    return result;
  };
  return {
    'mcpServers.list': () => admin.list(),
    'mcpServers.add': async ({ server }) => saved({ server: await admin.add(server) }),
    'mcpServers.update': async ({ name, server }) => saved({ server: await admin.update(name, server) }),
    'mcpServers.remove': async ({ name }) => {
      const removed = await saved(await admin.remove(name));
      // Its registration left after the reload that mcp.yaml's write sent: the registry's readers (an open agent editor) re-read.
      emit({ type: 'registry.changed' });
      return removed;
    },
    'mcpServers.setDisabled': async ({ name, disabled }) => saved({ server: await admin.setDisabled(name, disabled) }),
    'mcpServers.test': ({ name, server, timeoutMs }) => admin.test(name !== undefined ? { name } : { server }, timeoutMs),
    'mcpServers.importPlan': ({ text, fileName, storeSecrets }) => admin.planImport(text, fileName, storeSecrets),
    'mcpServers.importApply': async ({ text, fileName, options }) => saved(await admin.applyImport(text, fileName, options)),
    'mcpServers.templates': () => ({ templates: admin.templates() }),
    'mcpServers.addTemplate': async ({ templateId, name, params }) => saved({ server: await admin.addTemplate(templateId, name, params) }),
    'mcpServers.builtins': () => ({ builtins: host.mcp.builtins.list() }),
    'mcpServers.setBuiltin': async ({ name, change }) => saved({ builtin: await host.mcp.builtins.set(name, change) }),
    // Answers once the browser came back (or the sign-in failed, was cancelled or timed out). The page is opened by the
    // desktop app in the system browser, or in serve by the user's page, in a new tab, on the auth.openUrl event.
    'mcpServers.signIn': async ({ name }) => {
      await host.mcp.signIn.signIn(name, { openBrowser: (url) => (openExternal ? openExternal(url.href) : emit({ type: 'auth.openUrl', name, url: url.href })) });
      return { server: await admin.get(name) };
    },
    'mcpServers.cancelSignIn': ({ name }) => ({ cancelled: host.mcp.signIn.cancel(name) }),
    'mcpServers.signOut': async ({ name }) => {
      await host.mcp.signIn.signOut(name);
      return { server: await admin.get(name) };
    },
  };
}
