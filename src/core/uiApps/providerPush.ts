import type { AppContribution } from '../../shared/appContribution.js';
import { PushedPromptSchema, PushedServerSchema, type RegistrySource } from '../../shared/registry.js';
import { checkServerUrl } from '../mcp/config/transports.js';
import { OperationError } from '../operations/operationError.js';
import type { RegistryCenter } from '../registry/registryCenter.js';
import { RegistryError } from '../registry/registryError.js';

export type ProviderPush = { kind: 'server'; providerAppId: string; server: unknown } | { kind: 'prompt'; providerAppId: string; prompt: unknown };

/**
 * The registry interface's `registerMcpServer(providerAppId, serverConfig)` /
 * `registerPrompt(providerAppId, promptConfig)` for a provider app's page
 * (docs/rules/registry.md#the-push-api), checked as every registration is:
 * only under the app's own provider id, a plain name from which the registry
 * name is derived with the plugin and app ids (so it cannot take another
 * plugin's or the app's own rows, and the holder of an id keeps it), an
 * http(s) url only (a program's command is pinned by trust in plugin.json),
 * and nothing granted. The row is the plugin's, so its trust gates it.
 * `app` is bound by the face (the frame's app), never named by the page.
 */
export function pushRegistration(registry: Pick<RegistryCenter, 'registerMcpServer' | 'registerPrompt'>, app: AppContribution, push: ProviderPush): { id: string } {
  if (push.providerAppId !== app.providerAppId) {
    throw new OperationError(
      'NOT_ALLOWED',
      `providerAppId "${push.providerAppId}": app ${app.pluginId}/${app.appId} belongs to provider app "${app.providerAppId}" and may register only under it`,
      `pass "${app.providerAppId}" as providerAppId`,
    );
  }
  const source: RegistrySource = { kind: 'plugin', pluginId: app.pluginId, appId: app.appId, pluginDir: app.pluginDir, pushed: true };
  const derived = (name: string) => `${app.pluginId}.${app.appId}.${name}`;
  try {
    if (push.kind === 'server') {
      const server = parse(PushedServerSchema, push.server, 'serverConfig');
      const url = checkServerUrl(server.url);
      if (!url.ok || server.url.startsWith('cmd:')) {
        throw new OperationError(
          'NOT_ALLOWED',
          `serverConfig.url: ${url.ok ? 'a program cannot be registered through the host API' : url.message}`,
          `give a streamable HTTP url (http: or https:); a program over stdio goes in plugin.json ("ai.mcp"), where trust pins its command`,
        );
      }
      const row = registry.registerMcpServer(
        app.providerAppId,
        { name: derived(server.name), url: server.url, description: server.description, allowMain: server.allowMain, allowSub: server.allowSub },
        source,
      );
      return { id: row.id };
    }
    const prompt = parse(PushedPromptSchema, push.prompt, 'promptConfig');
    const row = registry.registerPrompt(app.providerAppId, { ...prompt, name: derived(prompt.name) }, source);
    return { id: row.id };
  } catch (error) {
    if (error instanceof RegistryError) throw new OperationError('NOT_ALLOWED', `${push.kind === 'server' ? 'serverConfig' : 'promptConfig'}.name: ${error.message}`, 'choose another name');
    throw error;
  }
}

function parse<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
  what: string,
): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = [what, ...issue.path.map(String)].join('.');
  throw new OperationError('NOT_ALLOWED', `${field}: ${issue.message}`, `fix ${field} and register again`);
}
