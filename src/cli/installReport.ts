import type { Host } from '../core/host.js';
import { InstallError } from '../core/facades/errors.js';
import type { InstallOutcome } from '../core/facades/plugins.js';
import type { PluginUpdate } from '../shared/pluginUpdate.js';
import { commit } from './globalOptions.js';
import { printJson, printProblems, UserError, type CliContext, type CliIo } from './output.js';
import { runPlanLines } from '../core/facades/plugins.js';
import type { RunPlan } from '../shared/trust.js';

/** What `chatos install` prints for a plugin and an MCP Bundle alike: the update it makes, its refusal, what it did. */

export function printRunPlan(io: CliIo, plan: RunPlan): void {
  for (const line of runPlanLines(plan)) io.out(line);
}

/** What an update in place changes: files, and what runs before (-) and after (+). */
export function printUpdate(io: CliIo, update: PluginUpdate): void {
  io.out(`${update.pluginId} is installed at ${update.dir}; installing this copy updates it in place`);
  if (update.files) {
    const { added, removed, modified } = update.files;
    const parts = [
      ['added', added],
      ['removed', removed],
      ['modified', modified],
    ]
      .filter(([, names]) => names!.length)
      .map(([what, names]) => `${what}: ${(names as string[]).join(', ')}`);
    io.out(`  files ${parts.join('; ') || 'unchanged'}`);
  }
  io.out(update.runPlanChanged ? 'what it runs changes (- before, + after):' : 'what it runs stays the same:');
  for (const line of update.lines) io.out(`${line.op}${line.text.slice(1)}`);
  io.out(`its grants are kept; ${update.wasTrusted ? 'its trust no longer matches, so' : ''} nothing of it runs until you trust it (chatos trust ${update.pluginId})`);
}

/** Runs an install, turning its refusal into the CLI's user error with the problems it carries. */
export async function installing<T>(io: CliIo, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof InstallError) {
      printProblems(io, error.problems);
      throw new UserError(error.message, error.hint);
    }
    throw error;
  }
}

/** What an install did (or why an update was declined), as `chatos install` prints it for a plugin and a bundle alike. */
export async function reportInstall(
  cli: CliContext,
  host: Host,
  json: boolean,
  source: string,
  outcome: InstallOutcome,
  answer: boolean | 'no-terminal',
  extra: Record<string, unknown> = {},
): Promise<void> {
  const { io } = cli;
  if (outcome.kind === 'declined') {
    if (json) printJson(io, { pluginId: outcome.update.pluginId, updated: false, update: outcome.update });
    const retry = `chatos install ${source} --yes`;
    throw answer === 'no-terminal'
      ? new UserError(
          `${outcome.update.pluginId} is already installed; updating it in place needs a confirmation`,
          `run "${retry}" to update it (it keeps its grants and must be trusted again), or "chatos uninstall ${outcome.update.pluginId}" first`,
        )
      : new UserError(`${outcome.update.pluginId} was not updated`, `run "${retry}" to update it without asking`);
  }
  const { installed } = outcome;
  const plugin = host.plugins.rescan().plugins.find((p) => p.dir === installed.dir);
  await commit(host);
  const plan = plugin ? host.plugins.runPlan(plugin) : undefined;
  const trust = plugin ? host.plugins.trustState(plugin).state : 'untrusted';
  if (json) {
    printJson(io, {
      pluginId: installed.pluginId,
      dir: installed.dir,
      trust,
      status: plugin?.status,
      updated: outcome.kind === 'updated',
      ...(outcome.kind === 'updated' ? { update: outcome.update } : {}),
      runPlan: plan,
      leftOut: installed.leftOut,
      problems: plugin?.problems ?? [],
      ...extra,
    });
  } else {
    if (outcome.kind === 'updated') io.out(`updated ${installed.pluginId} in ${installed.dir}; its grants are kept${trust === 'trusted' ? '' : ' (nothing of it runs until you trust it again)'}`);
    else io.out(`installed ${installed.pluginId} in ${installed.dir} (untrusted: nothing of it runs yet)`);
    if (installed.leftOut.length) io.out(`left out ${installed.leftOut.join(', ')}: version-control history, not plugin code`);
    if (plan && outcome.kind === 'installed') {
      io.out('once trusted it would run:');
      printRunPlan(io, plan);
    }
    if (trust !== 'trusted') io.out(`trust it with: chatos trust ${installed.pluginId}`);
  }
  printProblems(io, plugin?.problems ?? installed.problems);
}
