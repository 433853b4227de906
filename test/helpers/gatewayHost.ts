import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host, type HostOptions } from '../../src/core/host.js';
import type { Caller } from '../../src/core/tools/toolGateway.js';
import { GATEWAY_SERVER } from './mcpYaml.js';
import { writePlugin } from './plugins.js';
import { repoRoot, tempDir } from './tempDir.js';
import { until } from './until.js';
import { internalsOf } from '../../src/core/modules/hostInternals.js';
import { afterEachTest } from './afterEachTest.js';

// Re-exported for the host tests that import them from here; browser tests import the light modules themselves.
export { EVERYTHING_SERVER, GATEWAY_SERVER, fixtureServer, writeMcpYaml } from './mcpYaml.js';
export { freePort } from './freePort.js';

export interface PluginAppSpec {
  appId: string;
  callMeta?: Record<string, unknown>;
  allowMain?: boolean;
  allowSub?: boolean;
  /** The app's way-B exposure of other servers (`ai.mcpServers`). */
  mcpServers?: boolean | string[];
}

/**
 * A plugin whose apps each run the gateway fixture as their own server: the
 * entry inside the plugin folder only imports the fixture by absolute path.
 */
export function writeGatewayPlugin(root: string, pluginId: string, apps: PluginAppSpec[]): string {
  const files: Record<string, string> = {};
  const manifestApps = apps.map((app) => {
    files[`${app.appId}/index.mjs`] = 'export function mount() {}\n';
    files[`${app.appId}/server.mjs`] = `import ${JSON.stringify(GATEWAY_SERVER)};\n`;
    const mcp: Record<string, unknown> = { entry: `${app.appId}/server.mjs` };
    if (app.callMeta) mcp.callMeta = app.callMeta;
    if (app.allowMain !== undefined) mcp.allowMain = app.allowMain;
    if (app.allowSub !== undefined) mcp.allowSub = app.allowSub;
    return { id: app.appId, name: app.appId, entry: `${app.appId}/index.mjs`, ai: { mcp, ...(app.mcpServers === undefined ? {} : { mcpServers: app.mcpServers }) } };
  });
  return writePlugin(root, pluginId, { manifestVersion: 1, id: pluginId, name: pluginId, version: '1.0.0', apps: manifestApps }, files);
}

export interface TestHost {
  host: Host;
  home: string;
  pluginRoot: string;
  sessionRoot: string;
  projectRoot: string;
}

const hosts: Host[] = [];

afterEachTest(async () => {
  // dispose() ends every server the host started; a failing test must not leave processes behind.
  for (const host of hosts.splice(0)) await host.dispose();
});

/**
 * A started host in a temp home, with an extra plugin root; `setup` writes
 * plugins and mcp.yaml before start(). Built-in plugins and bundled
 * defaults are empty folders unless `options` names real ones.
 */
export async function startTestHost(setup: (dirs: { home: string; pluginRoot: string }) => void | Promise<void> = () => {}, options: Partial<HostOptions> = {}): Promise<TestHost> {
  const home = tempDir('chatos-gw-home-');
  const pluginRoot = tempDir('chatos-gw-plugins-');
  const sessionRoot = tempDir('chatos-gw-session-');
  const projectRoot = tempDir('chatos-gw-project-');
  await setup({ home, pluginRoot });
  // No built-in plugins and no bundled provider defaults unless asked: a listing as chatos would start their servers too.
  const host = createHost({
    home,
    appRoot: repoRoot,
    builtinPluginsDir: tempDir('chatos-gw-builtin-'),
    defaultsDir: tempDir('chatos-gw-defaults-'),
    extraPluginRoots: [pluginRoot],
    sessionRoot,
    projectRoot,
    ...options,
  });
  hosts.push(host);
  await host.start();
  return { host, home, pluginRoot, sessionRoot, projectRoot };
}

/** What `chatos trust <pluginId>` does. */
export function trustPlugin(host: Host, pluginId: string): void {
  const plugin = host.plugins.catalog.plugins.find((p) => p.id === pluginId && p.status === 'loaded');
  if (!plugin) throw new Error(`no loaded plugin ${pluginId}`);
  internalsOf(host).plugins.trustStore.trust({ ...plugin, id: pluginId }, host.plugins.runPlan(plugin));
}

export const caller = (conversationId = 'conv-1', overrides: Partial<Caller> = {}): Caller => ({ appId: 'chatos', conversationId, flow: 'main', ...overrides });

export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`expected text content, got ${JSON.stringify(result.content)}`);
  return first.text;
}

export const pidOf = (result: CallToolResult): number => Number(textOf(result));

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Polls `check` every 25 ms until it is true (until.ts); fails after `timeoutMs` with `what`. For states that raise no
 * event (a process gone). The time is a hang guard, not a bound: a process spawn took over 10 s at load 20.
 */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  await until(what, () => (check() ? true : undefined), timeoutMs, 25);
}

/** Every pid the runtime holds for a server, any conversation's. */
export function pidsOf(host: Host, serverId: string): number[] {
  return internalsOf(host)
    .mcp.runtime.connections.snapshot()
    .filter((s) => s.serverId === serverId)
    .flatMap((s) => s.leases.map((l) => l.pid))
    .filter((pid): pid is number => pid !== undefined);
}
