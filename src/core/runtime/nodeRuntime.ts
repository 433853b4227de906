import type { NodeRuntimeChoice } from '../../shared/mcp.js';
import { findCommand } from '../process/commandPath.js';

/**
 * The Node a server whose command is `node` runs under. A packaged desktop
 * app is often installed where no Node is, and a GUI launch may not see the
 * one that is; the app carries its own: Electron's binary, which is a plain
 * Node with ELECTRON_RUN_AS_NODE=1 (as plugin backends already run), and in
 * `chatos serve` or the CLI the Node running them.
 */
export interface BundledNode {
  /** The program to spawn. */
  command: string;
  /** What turns it into a plain Node (Electron only). */
  env: Readonly<Record<string, string>>;
  /** `electron <version>` or `node <version>`: what the run plan and diagnostics name. */
  label: string;
}

export function bundledNode(): BundledNode {
  const electron = process.versions.electron;
  return electron
    ? { command: process.execPath, env: { ELECTRON_RUN_AS_NODE: '1' }, label: `Electron ${electron} (Node ${process.versions.node})` }
    : { command: process.execPath, env: {}, label: `Node ${process.versions.node}` };
}

/**
 * Only a bare `node` is chosen for: a path (`/opt/node22/bin/node`) is the
 * user's own pick of a binary, and anything else is not Node.
 */
export function isBareNode(command: string, platform: NodeJS.Platform = process.platform): boolean {
  if (command.includes('/') || (platform === 'win32' && command.includes('\\'))) return false;
  const name = platform === 'win32' ? command.toLowerCase() : command;
  return name === 'node' || (platform === 'win32' && name === 'node.exe');
}

/** What is spawned for one server: its command as written, or the app's own Node with the variables it needs. */
export type NodeLaunch =
  | { runtime: 'as-written'; command: string; env: Readonly<Record<string, string>> }
  | { runtime: 'system'; command: string; env: Readonly<Record<string, string>>; found?: string }
  | { runtime: 'bundled'; command: string; env: Readonly<Record<string, string>>; why: 'chosen' | 'no-node-on-path' };

/**
 * The launch of `command` under `choice` (absent: auto), where the child's
 * PATH is `pathVar`: asked at every spawn, so `auto` follows what is
 * installed now. A `system` choice keeps `node`, found or not: its failure
 * to start names the PATH and the fix (serverTrouble.ts).
 */
export function nodeLaunch(command: string, choice: NodeRuntimeChoice | undefined, pathVar: string | undefined, bundled: BundledNode = bundledNode()): NodeLaunch {
  if (!isBareNode(command)) return { runtime: 'as-written', command, env: {} };
  const effective = choice ?? 'auto';
  if (effective === 'bundled') return { runtime: 'bundled', command: bundled.command, env: bundled.env, why: 'chosen' };
  const lookup = findCommand(command, pathVar);
  if (lookup.found) return { runtime: 'system', command, env: {}, found: lookup.file };
  if (effective === 'system') return { runtime: 'system', command, env: {} };
  return { runtime: 'bundled', command: bundled.command, env: bundled.env, why: 'no-node-on-path' };
}

/**
 * In words, for the run plan: what `choice` runs `node` under. Without the
 * binary's path or version, so a plan reads the same in every face and
 * after the app is updated.
 */
export function nodeChoiceText(choice: NodeRuntimeChoice): string {
  switch (choice) {
    case 'system':
      return 'node from PATH (nodeRuntime: system)';
    case 'bundled':
      return "the app's own Node (nodeRuntime: bundled)";
    case 'auto':
      return "node from PATH, else the app's own Node (nodeRuntime: auto; mcp.yaml's nodeRuntime block may choose system or bundled)";
  }
}

/** The child's PATH as its environment spells it (`Path` on Windows). */
export function pathOf(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'win32') return Object.hasOwn(env, 'PATH') ? env.PATH : undefined;
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  return key === undefined ? undefined : env[key];
}
