import type { Command } from 'commander';
import type { Host } from '../../core/host.js';
import type { RegistrySource } from '../../shared/registry.js';
import { RegistryError } from '../../core/facades/errors.js';
import type { GrantKind, PruneResult } from '../../core/facades/registry.js';
import type { RunGateCode } from '../../core/facades/plugins.js';
import { suggestClosest } from '../../core/facades/userInput.js';
import type { ContributionCopies, Missing } from '../../shared/registry.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, printProblems, UsageError, UserError, type CliContext, type CliIo } from '../output.js';
import { SECTIONS, type Section } from '../registrySections.js';

function grantOf(host: Host, app: string, id: string): { kind: GrantKind; outcome: 'created' | 'unchanged' } {
  try {
    const kind = host.registry.kindOf(id);
    return { kind, outcome: kind === 'server' ? host.registry.grantMcpServerAccess(app, id) : host.registry.grantPromptAccess(app, id) };
  } catch (error) {
    asUserError(error);
  }
}

function asUserError(error: unknown): never {
  if (error instanceof RegistryError)
    throw new UserError(error.message, error.code === 'UNKNOWN_APP' ? 'list apps with "chatos registry apps"' : 'list ids with "chatos registry servers" or "chatos registry prompts"');
  throw error;
}

function registryView(host: Host, sections: readonly Section[], forApp?: string) {
  const registry = host.registry;
  if (forApp !== undefined && !registry.isKnownApp(forApp)) {
    throw new UserError(
      `no app "${forApp}" is registered${suggestText(
        forApp,
        registry.listApps().map((a) => a.appId),
      )}`,
      'list apps with "chatos registry apps"',
    );
  }
  const view: Record<string, unknown> = {};
  if (forApp) view.for = forApp;
  if (sections.includes('apps')) view.apps = registry.listApps();
  // A row of a plugin that may not run is listed, marked: it is offered to no one until trusted.
  const marked = <T extends { id: string; source: RegistrySource; missing?: Missing }>(rows: T[], part: 'server' | 'prompt') => {
    const refused = registry.notRunnable(rows, part);
    return rows.map((row) => {
      const refusal = refused.get(row.id);
      return refusal ? { ...row, notRunnable: { code: refusal.code, message: refusal.message, fix: refusal.fix } } : row;
    });
  };
  if (sections.includes('servers')) view.servers = marked(forApp ? registry.getMcpServersForApp(forApp) : registry.listServers(), 'server');
  if (sections.includes('prompts')) view.prompts = marked(forApp ? registry.getPromptsForApp(forApp) : registry.listPrompts(), 'prompt');
  if (sections.includes('grants')) view.grants = { servers: registry.listGrants('server', forApp), prompts: registry.listGrants('prompt', forApp) };
  return view;
}

function suggestText(word: string, candidates: string[]): string {
  const close = suggestClosest(word, candidates);
  return close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : '';
}

/** A listed row is offered to no one when it is missing (its plugin is gone) or its plugin may not run. */
type Marked = { missing?: Missing; notRunnable?: { code: RunGateCode } };

const NOT_RUNNABLE_LABEL: Record<RunGateCode, string> = {
  PLUGIN_UNTRUSTED: 'plugin not trusted',
  PLUGIN_CHANGED: 'plugin changed since trusted',
  PLUGIN_BLOCKED: 'plugin blocked',
  PLUGIN_INVALID: 'plugin invalid',
  PLUGIN_MISSING: 'plugin not installed',
  PLUGIN_NOT_SCANNED: 'plugin root not scanned by this process',
};

function printText(cli: CliContext, view: Record<string, unknown>): void {
  const { io } = cli;
  if (view.for) io.out(`what "${view.for}" may see:`);
  const apps = view.apps as { appId: string; origins: string[] }[] | undefined;
  if (apps) {
    io.out(`apps (${apps.length}):`);
    for (const app of apps) io.out(`  ${app.appId}  [${app.origins.join(', ')}]`);
  }
  const mark = (row: Marked) => (row.missing ? `  (missing: ${row.missing.reason})` : row.notRunnable ? `  [${NOT_RUNNABLE_LABEL[row.notRunnable.code]}: offered to no one]` : '');
  const servers = view.servers as (Marked & { id: string; url: string; allowMain: boolean; allowSub: boolean })[] | undefined;
  if (servers) {
    io.out(`servers (${servers.length}):`);
    for (const s of servers) io.out(`  ${s.id}  ${s.url}${s.allowMain ? '' : '  (not in main flows)'}${mark(s)}`);
  }
  const prompts = view.prompts as (Marked & { id: string; title?: string })[] | undefined;
  if (prompts) {
    io.out(`prompts (${prompts.length}):`);
    for (const p of prompts) io.out(`  ${p.id}${p.title ? `  "${p.title}"` : ''}${mark(p)}`);
  }
  const grants = view.grants as { servers: { appId: string; targetId: string }[]; prompts: { appId: string; targetId: string }[] } | undefined;
  if (grants) {
    io.out(`grants (${grants.servers.length + grants.prompts.length}):`);
    for (const g of grants.servers) io.out(`  server ${g.targetId} → ${g.appId}`);
    for (const g of grants.prompts) io.out(`  prompt ${g.targetId} → ${g.appId}`);
  }
}

function printPrune(io: CliIo, result: PruneResult, applied: boolean): void {
  if (!result.registrations.length && !result.apps.length) {
    io.out('nothing to prune: every registration is there');
    return;
  }
  io.out(applied ? 'removed:' : 'would remove (run again with --yes to remove):');
  for (const r of result.registrations) {
    io.out(`  ${r.kind} ${r.id}: ${r.reason}${r.grants.length ? `; with its grant${r.grants.length > 1 ? 's' : ''} to ${r.grants.map((g) => g.appId).join(', ')}` : ''}`);
  }
  for (const app of result.apps) io.out(`  app ${app}: nothing provides it any more`);
}

function printCopies(io: CliIo, copies: ContributionCopies): void {
  io.out(`syncAiContributes: ${copies.syncAiContributes ? 'on' : 'off'} (plugin servers and prompts ${copies.syncAiContributes ? 'are' : 'are not'} copied into the host's own lists)`);
  io.out(`server copies (${copies.servers.length}):`);
  for (const s of copies.servers) io.out(`  ${s.name}  ${s.url}  [copy of ${s.pluginId} / ${s.appId}]`);
  io.out(`prompt copies (${copies.prompts.length}):`);
  for (const p of copies.prompts) io.out(`  ${p.name}${p.lang ? ` (${p.lang})` : ''}  [copy of ${p.pluginId} / ${p.appId}]`);
}

export async function registry(cli: CliContext, section: string | undefined, opts: { for?: string }, command: Command): Promise<void> {
  const { io } = cli;
  if (section !== undefined && !SECTIONS.includes(section as Section)) throw new UsageError(`unknown section "${section}"; use one of ${SECTIONS.join(', ')} (or "prune")`);
  const options = globalOptions(command);
  await withReadOnlyHost(options, (host) => {
    const view = registryView(host, section ? [section as Section] : SECTIONS, opts.for);
    const problems = host.registry.problems.filter((p) => p.severity !== 'notice');
    if (options.json) printJson(io, { ...view, problems });
    else printText(cli, view);
    printProblems(io, problems);
  });
  cli.exitCode = 0;
}

export async function prune(cli: CliContext, opts: { yes?: boolean }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const apply = opts.yes === true;
  const use = async (host: Host) => {
    const result = host.registry.prune(apply);
    if (apply) await commit(host);
    if (options.json) printJson(io, { applied: apply, ...result });
    else printPrune(io, result, apply);
  };
  await (apply ? withStartedHost(options, use) : withReadOnlyHost(options, use));
  cli.exitCode = 0;
}

export async function copies(cli: CliContext, value: string | undefined, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  if (value !== undefined && value !== 'on' && value !== 'off') throw new UsageError(`"${value}" is not a switch; use "on" or "off" (or nothing, to see the copies)`);
  const options = globalOptions(command);
  const use = async (host: Host) => {
    let copies = host.plugins.contributionCopies();
    if (value !== undefined) {
      copies = host.plugins.setSyncAiContributes(value === 'on');
      await commit(host);
    }
    if (options.json) printJson(io, copies);
    else printCopies(io, copies);
  };
  await (value === undefined ? withReadOnlyHost(options, use) : withStartedHost(options, use));
  cli.exitCode = 0;
}

export async function grant(cli: CliContext, app: string, id: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    const { kind, outcome } = grantOf(host, app, id);
    await commit(host);
    if (options.json) printJson(io, { app, id, kind, outcome });
    else io.out(outcome === 'created' ? `granted ${kind} ${id} to ${app}` : `${app} already had ${kind} ${id}`);
  });
  cli.exitCode = 0;
}

export async function revoke(cli: CliContext, app: string, id: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    const registry = host.registry;
    const revoked: GrantKind[] = [];
    if (registry.revokeMcpServerAccess(app, id)) revoked.push('server');
    if (registry.revokePromptAccess(app, id)) revoked.push('prompt');
    if (!revoked.length) {
      const granted = [...registry.listGrants('server', app), ...registry.listGrants('prompt', app)].map((g) => g.targetId);
      throw new UserError(`"${app}" has no grant of "${id}"${suggestText(id, granted)}`, `list its grants with "chatos registry grants --for ${app}"`);
    }
    await commit(host);
    if (options.json) printJson(io, { app, id, revoked });
    else io.out(`revoked ${revoked.join(' and ')} ${id} from ${app}`);
  });
  cli.exitCode = 0;
}
