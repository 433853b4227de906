import type { Command } from 'commander';
import { readProblem, readRegularText } from '../../core/facades/userInput.js';
import { McpAdminError, SecretError } from '../../core/facades/errors.js';
import { launchLine } from '../../core/facades/mcp.js';
import { DEFAULT_TEST_TIMEOUT_MS } from '../../core/facades/limits.js';

import type { ImportPlan, ImportRun, ImportValueView, McpServerEntryView, McpTestResult, NamedValueInput, ValueView } from '../../shared/mcpAdmin.js';
import { ConflictChoiceSchema } from '../../shared/mcpAdmin.js';
import { ownValue } from '../../shared/ownKeys.js';
import { formatProblem } from '../../shared/problemText.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { signInText } from './mcpSignIn.js';
import { pair } from '../pairOption.js';
import { printJson, printProblems, UsageError, UserError, type CliContext, type CliIo } from '../output.js';
// The core's schema checks --node-runtime's value and names the option when it is not one of the three.
import { LogLevelSchema, type NodeRuntimeChoice } from '../../shared/mcp.js';
import { LOG_LEVELS } from '../../shared/logLevels.js';
import { protocolText } from '../../shared/protocolWords.js';

/**
 * `chatos mcp …`: the user's MCP servers (mcp.yaml) from a terminal, through
 * the same operations as the MCP servers page (host.mcp.admin), so a
 * server added here is the one the page shows, and the file keeps its
 * comments either way.
 */

/** The option that sets each field of the input, for errors about it. */
const OPTION_OF_FIELD: Record<string, string> = {
  name: 'NAME',
  command: '--command',
  url: '--url',
  cwd: '--cwd',
  nodeRuntime: '--node-runtime',
  args: '--arg',
  env: '--env',
  headers: '--header',
  transport: '--command / --url',
};

function optionOf(path: string): string {
  const field = /^[A-Za-z]+/.exec(path)?.[0] ?? path;
  return ownValue(OPTION_OF_FIELD, field) ?? path;
}

/** Admin errors as the CLI reports them: a field the options got wrong is bad usage (2), the rest a problem to fix (1). */
async function adminStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof McpAdminError && error.code === 'MCP_SERVER_INVALID' && error.fields.length) {
      throw new UsageError(error.fields.map((f) => `${optionOf(f.path)}: ${f.message}${f.hint ? `\n    fix: ${f.hint}` : ''}`).join('\n'));
    }
    if (error instanceof McpAdminError || error instanceof SecretError) throw new UserError(error.message, error.hint);
    throw error;
  }
}

function values(literal: string[], fromHost: string[], literalOption: string, hostOption: string): NamedValueInput[] {
  return [
    ...literal.map((text) => {
      const [key, value] = pair(text, literalOption);
      return { key, value: { kind: 'text' as const, text: value } };
    }),
    ...fromHost.map((text) => {
      const [key, name] = pair(text, hostOption);
      return { key, value: { kind: 'env' as const, name } };
    }),
  ];
}

function valueText(value: ValueView): string {
  switch (value.kind) {
    case 'text':
      return JSON.stringify(value.text);
    case 'env':
      return `$${value.name}${value.set ? '' : ' (not set here)'}`;
    case 'secret':
      return value.set ? '•••• (stored)' : '(stored value missing)';
  }
}

function printServer(io: CliIo, server: McpServerEntryView): void {
  const kind = server.transport === 'streamable_http' ? 'http' : (server.transport ?? '?');
  const flags = [server.disabled ? 'disabled' : '', server.problems.some((p) => p.severity === 'error') ? 'has errors' : ''].filter(Boolean);
  io.out(`  ${server.name}  [${kind}] ${launchLine(server)}${flags.length ? `  (${flags.join(', ')})` : ''}`);
  for (const [label, list] of [
    ['env', server.env],
    ['header', server.headers],
  ] as const)
    for (const { key, value } of list) io.out(`      ${label} ${key} = ${valueText(value)}`);
  if (server.cwd) io.out(`      cwd ${server.cwd}`);
  if (server.nodeRuntime) io.out(`      node runtime ${server.nodeRuntime}`);
  if (server.otherKeys.length) io.out(`      also set in the file: ${server.otherKeys.join(', ')}`);
  if (server.signIn && server.signIn.kind !== 'none')
    io.out(`      ${signInText(server.signIn)}${server.signIn.kind === 'needed' || server.signIn.kind === 'again' ? ` (chatos mcp login ${server.name})` : ''}`);
}

function printTest(io: CliIo, name: string, result: McpTestResult): void {
  if (result.ok) {
    io.out(`ok: ${name} started in ${result.ms} ms${result.protocol ? `, speaks ${protocolText(result.protocol)},` : ''} and lists ${result.tools.length} tool(s):`);
    for (const tool of result.tools) io.out(`  ${tool.name}${tool.description ? `  ${tool.description.split('\n')[0]}` : ''}`);
    return;
  }
  io.err(`error: ${name}: ${result.message} [${result.code}${result.reason ? ` ${result.reason}` : ''}]${result.hint ? `\n    fix: ${result.hint}` : ''}`);
  for (const field of result.fields ?? []) io.err(`    ${field.path}: ${field.message}`);
  if (result.stderr.length) io.err(`  its stderr:\n    ${result.stderr.join('\n    ')}`);
}

function importValueText(value: ImportValueView): string {
  switch (value.kind) {
    case 'text':
      return value.shown;
    case 'env':
      return `$${value.name} (copied from the host's ${value.name} when it starts)`;
    case 'secret':
      return '•••• (kept in the key store)';
  }
}

/** Everything an imported server runs with: its folder, each variable its process gets, its headers. */
function printRun(write: (text: string) => void, run: ImportRun, indent: string): void {
  if (run.command) write(`${indent}folder: ${run.cwd ?? "the host's working folder"}`);
  for (const { name, value, changesCode } of run.env) write(`${indent}env ${name}=${importValueText(value)}${changesCode ? '  (decides which code runs)' : ''}`);
  if (run.command) write(`${indent}${run.env.length ? 'and from the host' : 'env from the host only'}: ${run.inherited.join(', ')}`);
  for (const { name, value } of run.headers) write(`${indent}header ${name}: ${importValueText(value)}`);
}

/** The plan a user approves: for each server, what becomes of it and everything it would run with. */
function printPlan(io: CliIo, plan: ImportPlan, write: (text: string) => void = io.out): void {
  const format = plan.format === 'vscode' ? 'VS Code (servers)' : 'Claude Desktop / Cursor / Cline (mcpServers)';
  const indent = '           ';
  write(`${plan.entries.length} server(s) in a ${format} config:`);
  for (const entry of plan.entries) {
    const what = entry.status === 'add' ? 'add     ' : entry.status === 'conflict' ? 'conflict' : 'refused ';
    write(`  ${what} ${entry.name}${entry.name !== entry.sourceName ? ` (from ${JSON.stringify(entry.sourceName)})` : ''}${entry.launch ? `  ${entry.launch}` : ''}`);
    if (entry.run) printRun(write, entry.run, indent);
    if (entry.conflict) write(`${indent}mcp.yaml has "${entry.name}": ${entry.conflict.existingLaunch} (skip, replace, or rename to "${entry.conflict.suggestedName}": --on-conflict)`);
    if (entry.reason) write(`${indent}${entry.reason.message} [${entry.reason.code}]\n${indent}fix: ${entry.reason.hint}`);
    for (const note of entry.notes) write(`${indent}${note.code === 'IMPORT_ENV_CHANGES_CODE' ? 'WARNING' : 'note'}: ${note.message}`);
  }
}

function readImportFile(file: string, stdin: NodeJS.ReadableStream): Promise<string> | string {
  if (file === '-') {
    return (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      return Buffer.concat(chunks).toString('utf8');
    })();
  }
  // A regular file only: a FIFO must not hang the command, a huge file is no config.
  const read = readRegularText(file, { maxBytes: 4 * 1024 * 1024 });
  if (!read.ok) {
    const problem = readProblem(read, file);
    throw new UserError(`cannot read ${file}: ${problem.message}`, problem.hint);
  }
  return read.text;
}

interface AddOptions {
  command?: string;
  url?: string;
  arg: string[];
  env: string[];
  envVar: string[];
  header: string[];
  headerVar: string[];
  cwd?: string;
  nodeRuntime?: string;
  disabled?: boolean;
  template?: string;
  param: string[];
}

export async function list(cli: CliContext, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withReadOnlyHost(options, async (host) => {
    const list = await adminStep(() => host.mcp.admin.list());
    if (options.json) printJson(io, list);
    else if (!list.servers.length) io.out(`no servers in ${list.file} yet; add one: chatos mcp add NAME --command CMD [--arg A]… (or chatos mcp templates)`);
    else {
      io.out(`${list.servers.length} server(s) in ${list.file}:`);
      for (const server of list.servers) printServer(io, server);
    }
    printProblems(io, [...list.problems, ...list.servers.flatMap((s) => s.problems)]);
  });
  cli.exitCode = 0;
}

export async function add(cli: CliContext, name: string, rest: string[], opts: AddOptions, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const view = await withStartedHost(options, async (host) => {
    let added: McpServerEntryView;
    if (opts.template) {
      if (opts.command || opts.url) throw new UsageError('give --template, or --command / --url, not both');
      const params = Object.fromEntries(opts.param.map((text) => pair(text, '--param')));
      added = await adminStep(() => host.mcp.admin.addTemplate(opts.template!, name, params));
    } else {
      if ((opts.command === undefined) === (opts.url === undefined)) throw new UsageError('give --command CMD (a program, stdio) or --url URL (streamable HTTP), one of the two');
      const input =
        opts.command !== undefined
          ? {
              name,
              transport: 'stdio' as const,
              command: opts.command,
              args: [...opts.arg, ...rest],
              env: values(opts.env, opts.envVar, '--env', '--env-var'),
              ...(opts.cwd ? { cwd: opts.cwd } : {}),
              ...(opts.nodeRuntime ? { nodeRuntime: opts.nodeRuntime as NodeRuntimeChoice } : {}),
              ...(opts.disabled ? { disabled: true } : {}),
            }
          : { name, transport: 'streamable_http' as const, url: opts.url!, headers: values(opts.header, opts.headerVar, '--header', '--header-var'), ...(opts.disabled ? { disabled: true } : {}) };
      if (opts.url !== undefined && (opts.arg.length || rest.length || opts.env.length || opts.envVar.length || opts.cwd || opts.nodeRuntime))
        throw new UsageError('--arg, --env, --env-var, --cwd and --node-runtime are for --command (stdio); an HTTP server takes --header');
      added = await adminStep(() => host.mcp.admin.add(input));
    }
    await commit(host);
    return added;
  });
  if (options.json) printJson(io, { server: view });
  else {
    io.out(`added ${view.name} to mcp.yaml (registry id ${view.id}):`);
    printServer(io, view);
    io.out(`try it: chatos mcp test ${view.name}`);
  }
  printProblems(io, view.problems);
  cli.exitCode = 0;
}

export async function remove(cli: CliContext, name: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const result = await withStartedHost(options, async (host) => {
    const removed = await adminStep(() => host.mcp.admin.remove(name));
    await commit(host);
    return removed;
  });
  if (options.json) printJson(io, result);
  else {
    const also = [result.storedValuesRemoved ? `${result.storedValuesRemoved} stored value(s)` : '', result.grantsRevoked ? `${result.grantsRevoked} grant(s) to it` : ''].filter(Boolean);
    const agents = result.agentsChanged.length ? `; no longer selected by agent(s) ${result.agentsChanged.join(', ')}` : '';
    io.out(`removed ${name} from mcp.yaml, with its registration${also.length ? ` and ${also.join(' and ')}` : ''}${agents}`);
  }
  cli.exitCode = 0;
}

/** `chatos mcp enable|disable NAME`: the server's `disabled` in mcp.yaml. */
async function setDisabled(cli: CliContext, name: string, command: Command, disabled: boolean): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const view = await withStartedHost(options, async (host) => {
    const changed = await adminStep(() => host.mcp.admin.setDisabled(name, disabled));
    await commit(host);
    return changed;
  });
  if (options.json) printJson(io, { server: view });
  else io.out(`${name} is ${disabled ? 'disabled' : 'enabled'}`);
  cli.exitCode = 0;
}

export const enable = (cli: CliContext, name: string, _opts: unknown, command: Command) => setDisabled(cli, name, command, false);
export const disable = (cli: CliContext, name: string, _opts: unknown, command: Command) => setDisabled(cli, name, command, true);

export async function logLevel(cli: CliContext, serverId: string, level: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const chosen = level === 'default' ? undefined : LogLevelSchema.safeParse(level).data;
  if (level !== 'default' && !chosen) throw new UsageError(`<level> must be one of ${LOG_LEVELS.join(', ')} or default, not "${level}"`);
  await withStartedHost(options, async (host) => {
    await host.mcp.servers.setLogLevel(serverId, chosen);
    await commit(host);
  });
  if (options.json) printJson(io, { serverId, logLevel: chosen ?? null });
  else io.out(chosen ? `${serverId} logs from ${chosen} at its next start (a running app sends it when the server next starts)` : `${serverId} logs at its own default level from its next start`);
  cli.exitCode = 0;
}

export async function test(cli: CliContext, name: string, opts: { timeout?: string }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const seconds = opts.timeout === undefined ? DEFAULT_TEST_TIMEOUT_MS / 1000 : Number(opts.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout must be a positive number of seconds, not "${opts.timeout}"`);
  const result = await withReadOnlyHost(options, (host) => adminStep(() => host.mcp.admin.test({ name }, seconds * 1000)));
  if (options.json) printJson(io, { name, ...result });
  printTest(options.json ? { ...io, out: () => {} } : io, name, result);
  cli.exitCode = result.ok ? 0 : 1;
}

export async function importConfig(cli: CliContext, file: string, opts: { yes?: boolean; onConflict: string; storeSecrets: boolean }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const onConflict = ConflictChoiceSchema.safeParse(opts.onConflict);
  if (!onConflict.success) throw new UsageError(`--on-conflict must be skip, replace or rename, not "${opts.onConflict}"`);
  const text = await readImportFile(file, io.stdin);
  const fileName = file === '-' ? undefined : file;
  const plan = await withReadOnlyHost(options, (host) => adminStep(async () => host.mcp.admin.planImport(text, fileName, opts.storeSecrets)));
  if (plan.problems.length) {
    if (options.json) printJson(io, { plan, applied: false });
    for (const problem of plan.problems) io.err(formatProblem(problem));
    cli.exitCode = 1;
    return;
  }
  // The plan is the answer on stdout; with --json, on stderr as words as well.
  printPlan(io, plan, options.json ? io.err : io.out);
  const importable = plan.entries.filter((e) => e.status !== 'refused').length;
  if (importable === 0) {
    if (options.json) printJson(io, { plan, applied: false });
    io.err('error: nothing in it can be imported (see the reasons above)');
    cli.exitCode = 1;
    return;
  }
  let yes = opts.yes === true;
  if (!yes && io.ask && file !== '-') yes = /^y(es)?$/i.test((await io.ask(`import ${importable} server(s) into mcp.yaml? [y/N] `)).trim());
  else if (!yes) {
    if (options.json) printJson(io, { plan, applied: false });
    io.err('error: nothing was imported: there is no terminal to ask on\n    fix: run it again with --yes to import (and --on-conflict skip|replace|rename for names mcp.yaml already has)');
    cli.exitCode = 1;
    return;
  }
  if (!yes) {
    io.err('nothing was imported');
    cli.exitCode = 1;
    return;
  }
  const result = await withStartedHost(options, async (host) => {
    const applied = await adminStep(() => host.mcp.admin.applyImport(text, fileName, { onConflict: onConflict.data, storeSecrets: opts.storeSecrets }));
    await commit(host);
    return applied;
  });
  if (options.json) printJson(io, { plan, applied: true, result });
  else {
    const parts = [
      `${result.added.length} added`,
      result.replaced.length ? `${result.replaced.length} replaced` : '',
      result.renamed.length ? `${result.renamed.length} renamed` : '',
      result.skipped.length ? `${result.skipped.length} skipped` : '',
      result.refused.length ? `${result.refused.length} refused` : '',
    ].filter(Boolean);
    io.out(`imported into mcp.yaml: ${parts.join(', ')}`);
  }
  cli.exitCode = 0;
}

export async function templates(cli: CliContext, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  return withReadOnlyHost(options, (host) => {
    const templates = host.mcp.admin.templates();
    if (options.json) printJson(io, { templates });
    else {
      for (const t of templates) {
        const params = t.params.map((p) => ` --param ${p.key}=${p.default ?? '…'}`).join('');
        io.out(`  ${t.id}  ${t.title.en}${t.bundled ? ' (installed with ChatOS)' : ` (${t.runner})`}: ${t.description.en}\n      chatos mcp add ${t.name} --template ${t.id}${params}`);
      }
    }
    cli.exitCode = 0;
  });
}
