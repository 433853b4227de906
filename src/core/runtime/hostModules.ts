import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The host's own `@modelcontextprotocol/sdk`, `@modelcontextprotocol/server`
 * (the v2 server package, which speaks both protocol eras) and `zod`,
 * offered to plugin servers and backends that import them without bundling
 * them (plugins written for the original ChatOS do). A Node process of a plugin is started
 * with `--import <appRoot>/runtime/host-modules.mjs`, which maps those
 * bare names, and only those, to the copies in the application's
 * node_modules when the plugin has none of its own. The flag is part of the
 * run plan shown before trusting, and of the command actually spawned.
 */
export interface HostModules {
  /** `--import` and the hook's file url: goes before the entry on a node command line. */
  readonly nodeArgs: readonly string[];
  /** What a plugin gets, by name, with the versions installed beside the host. */
  readonly packages: readonly { name: string; version: string }[];
}

/** Kept in step with runtime/host-modules-names.mjs, which the plugin process reads. */
const PACKAGES = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', 'zod'];

function installedVersion(appRoot: string, name: string): string {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(appRoot, 'node_modules', ...name.split('/'), 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'missing';
  }
}

/** The hook and the packages of the application at `appRoot` (the real folder a child process can read). */
export function hostModulesOf(appRoot: string): HostModules {
  const hook = path.join(appRoot, 'runtime', 'host-modules.mjs');
  return {
    nodeArgs: ['--import', pathToFileURL(hook).href],
    packages: PACKAGES.map((name) => ({ name, version: installedVersion(appRoot, name) })),
  };
}

/** `node`, `node.exe` or a path to one: a command whose first arguments are Node's own options. */
export function isNodeCommand(command: string): boolean {
  const base = path.basename(command).toLowerCase();
  return base === 'node' || base === 'node.exe';
}

/** A plugin server's arguments as spawned: the hook first when the command is Node, else unchanged. */
export function serverArgsWithHostModules(command: string, args: readonly string[], hostModules: HostModules | undefined): string[] {
  return hostModules && isNodeCommand(command) ? [...hostModules.nodeArgs, ...args] : [...args];
}
