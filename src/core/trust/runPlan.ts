import type { EnvValue } from '../../shared/mcp.js';
import * as path from 'node:path';
import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { RunEnv, RunPlan, RunWarning } from '../../shared/trust.js';
import { quotedWord } from '../../shared/visibleText.js';
import { whyChangesCode } from '../process/codeVariables.js';
import { inheritedBeside } from '../process/serverEnvironment.js';
import { serverArgsWithHostModules, type HostModules } from '../runtime/hostModules.js';
import { isInside } from '../plugins/pluginPaths.js';
import { isBareNode } from '../runtime/nodeRuntime.js';

/** What a process gets: the plugin's variables, and the host's inherited ones it does not override. */
/** A stored value is shown by its name, never read: the plan says where the value comes from. */
const shownValue = (value: EnvValue) => (typeof value === 'string' ? value : 'secret' in value ? `(stored value ${value.secret})` : `(host variable ${value.env})`);

function runEnv(set: Readonly<Record<string, EnvValue>>): RunEnv {
  const names = Object.keys(set);
  return { set: names.map((name) => ({ name, value: shownValue(set[name]!) })), inherited: inheritedBeside(names) };
}

const looksLikePath = (word: string) => word.includes('/') || word.includes('\\');

/** Every part of one process's launch that runs code from outside the plugin folder. */
function warningsFor(subject: string, pluginDir: string, command: string | undefined, args: readonly string[], env: RunEnv): RunWarning[] {
  const warnings: RunWarning[] = [];
  for (const { name, value } of env.set) {
    const why = whyChangesCode(name);
    if (why === undefined) continue;
    warnings.push({
      code: 'ENV_CHANGES_CODE',
      subject,
      variable: name,
      message: `${subject} is started with ${quotedWord(name)}=${quotedWord(value)}, which changes which code runs (${why}): code from outside the plugin folder, which trust does not pin`,
    });
  }
  // A bare name is looked up on PATH as for any program; a path names a file, and one outside the folder is not pinned.
  if (command !== undefined && looksLikePath(command)) {
    if (!path.isAbsolute(command)) {
      warnings.push({ code: 'COMMAND_OUTSIDE_PLUGIN', subject, message: `${subject} runs ${quotedWord(command)}, a path relative to wherever the host was started, not a file of the plugin` });
    } else if (!isInside(pluginDir, path.resolve(command))) {
      warnings.push({ code: 'COMMAND_OUTSIDE_PLUGIN', subject, message: `${subject} runs ${quotedWord(command)}, a program outside the plugin folder, which trust does not pin` });
    }
  }
  for (const arg of args) {
    if (path.isAbsolute(arg) && !isInside(pluginDir, path.resolve(arg))) {
      warnings.push({ code: 'ARG_OUTSIDE_PLUGIN', subject, message: `${subject} is given ${quotedWord(arg)}, a path outside the plugin folder: if it is code, trust does not pin it` });
    }
  }
  return warnings;
}

/**
 * What a plugin would run: the exact argv and environment of each server,
 * each page entry, its backend; and what in them trust cannot pin. With
 * `hostModules` (every host passes its own), a Node server's argv and the
 * backend's Node options carry the hook that offers the host's SDK and zod,
 * exactly as they are spawned.
 */
export function runPlanOf(plugin: PluginRecord, apps: readonly AppContribution[], backendEntry?: string, hostModules?: HostModules): RunPlan {
  const own = apps.filter((a) => a.pluginDir === plugin.dir);
  const warnings: RunWarning[] = [];
  const servers = own
    .filter((a) => a.mcp)
    .map((a) => {
      const mcp = a.mcp!;
      if (!mcp.command) return { appId: a.appId, serverName: a.serverName, url: mcp.url };
      const env = runEnv(mcp.env);
      warnings.push(...warningsFor(`server ${a.serverName}`, plugin.dir, mcp.command, mcp.args ?? [], env));
      // The default only, so the plan stays what plugin.json pins; the run gate still decides at spawn.
      const nodeRuntime = isBareNode(mcp.command) ? ({ nodeRuntime: 'auto' } as const) : {};
      return { appId: a.appId, serverName: a.serverName, command: [mcp.command, ...serverArgsWithHostModules(mcp.command, mcp.args ?? [], hostModules)], url: mcp.url, env, ...nodeRuntime };
    });
  return {
    servers,
    // An MCP App page is no file of the plugin: its server (listed above) serves it.
    // An app that is a server alone (an installed MCP bundle) has no page to list.
    pages: own.flatMap((a) => {
      const entry = a.entry.path ?? a.mcpApp?.resourceUri;
      return entry === undefined ? [] : [{ appId: a.appId, entry, compact: a.entry.compactPath }];
    }),
    backend: backendEntry,
    ...(backendEntry ? { backendEnv: runEnv({}) } : {}),
    ...(backendEntry && hostModules ? { backendNodeArgs: [...hostModules.nodeArgs] } : {}),
    ...(hostModules ? { hostModules: hostModules.packages.map((p) => ({ ...p })) } : {}),
    warnings,
  };
}
