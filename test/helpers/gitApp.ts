import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Host } from '../../src/core/host.js';
import { startTestHost } from './gatewayHost.js';
import { repoRoot, tempDir } from './tempDir.js';

/**
 * The built-in Git app's MCP server through the gateway (its real server
 * over real stdio, started by a host with the shipped plugins), and real
 * repositories made with the real `git` for it to work on.
 */

export const GIT_SERVER = 'git_app::chatos.git.git';
export const gitTool = (name: string) => `mcp_chatos_git_git_${name}`;
const gitApp = { pluginId: 'chatos.git', appId: 'git', mcp: true, prompt: false };

export function gitIn(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
}

/** A repository named `name` in `parent`, with one commit on main and a user to commit as. */
export function makeRepo(parent = tempDir('chatos-git-root-'), name = 'project'): string {
  const repo = path.join(parent, name);
  fs.mkdirSync(repo);
  gitIn(repo, 'init', '--quiet', '--initial-branch=main');
  gitIn(repo, 'config', 'user.name', 'Tester');
  gitIn(repo, 'config', 'user.email', 'tester@example.com');
  fs.writeFileSync(path.join(repo, 'README.md'), 'hello\n');
  gitIn(repo, 'add', 'README.md');
  gitIn(repo, 'commit', '--quiet', '-m', 'first');
  return repo;
}

/** The shipped world: the built-in plugins, and the app aide from the bundled defaults for the agent to act for. */
export const shippedHost = () => startTestHost(() => {}, { builtinPluginsDir: path.join(repoRoot, 'plugins'), defaultsDir: path.join(repoRoot, 'defaults') });

/** A host whose agent `coder` may use the Git server, with `roots` as its workspace folders. */
export async function gitHost(roots: string[]): Promise<Host> {
  const { host } = await shippedHost();
  host.registry.grantMcpServerAccess('aide', GIT_SERVER);
  host.agents.create({ id: 'coder', name: 'Coder', hostAppId: 'aide', uiApps: [gitApp], roots });
  return host;
}

export async function callGit(host: Host, name: string, args: Record<string, unknown>, conversationId = 'conv-git') {
  const { caller } = host.tools.callers.agent('coder', 'main', conversationId);
  return (await host.tools.call(caller, gitTool(name), args)).result;
}
