import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { AgentError } from '../../core/facades/errors.js';
import type { ResolvedAgent } from '../../core/facades/agents.js';
import type { Host } from '../../core/host.js';
import { suggestClosest, parseByExtension, findUnknownKeys } from '../../core/facades/userInput.js';
import { AgentInputSchema, type AcpTerminalLevel, type Agent } from '../../shared/agents.js';
import type { Problem } from '../../shared/problems.js';
import { formatJsonPath } from '../../shared/problemText.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, printProblems, UserError, type CliContext, type CliIo } from '../output.js';

/** Thrown after the problems were printed: exit 1 with nothing more to say. */
class ReportedError extends UserError {}

/** The resolved view `show`, `create` and `update` print. */
function agentView(resolved: ResolvedAgent) {
  return { agent: resolved.agent, serverIds: resolved.serverIds, prompt: resolved.prompt, problems: resolved.problems };
}

function resolve(host: Host, agent: Agent): ResolvedAgent {
  return host.agents.resolve(agent);
}

/** The agent with this id, or exit 1 with close matches. */
export function findAgent(host: Host, id: string): Agent {
  const agent = host.agents.get(id);
  if (agent) return agent;
  const known = host.agents.list().map((a) => a.id);
  const close = suggestClosest(id, known);
  throw new UserError(
    `no agent "${id}"${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''}`,
    known.length ? 'list agents with "chatos agents list"' : 'create one with "chatos agents create --file agent.json"',
  );
}

/** `uiApps.0.pluginId` (the store's field path) → `uiApps[0].pluginId`. Agent keys hold no dots, so the split is exact. */
function jsonPathOf(storePath: string): string {
  if (storePath === '(root)' || storePath === '') return '';
  return formatJsonPath(storePath.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s)));
}

/** Reads an agent file (JSON, or YAML by extension); syntax errors exit 1 with line and column; unknown keys are warnings. */
function readAgentFile(io: CliIo, file: string): { value: unknown; file: string; warnings: Problem[] } {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (error) {
    throw new UserError(`cannot read ${abs}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  const parsed = parseByExtension(text, abs);
  if (!parsed.ok) {
    printProblems(io, [parsed.problem]);
    throw new ReportedError(`${abs} is not a valid agent file`);
  }
  return { value: parsed.value, file: abs, warnings: findUnknownKeys(AgentInputSchema, parsed.value, abs) };
}

/** Runs a store write; an invalid agent prints one problem per field (file + JSON path) and exits 1. */
function storeWrite(io: CliIo, file: string, write: () => Agent): Agent {
  try {
    return write();
  } catch (error) {
    if (!(error instanceof AgentError)) throw error;
    if (error.code === 'AGENT_INVALID') {
      printProblems(
        io,
        error.fields.map((f) => ({ severity: 'error', code: 'AGENT_INVALID', file, path: jsonPathOf(f.path), message: f.message })),
      );
      throw new ReportedError(`${file} is not a valid agent (${error.fields.length} problem${error.fields.length === 1 ? '' : 's'})`);
    }
    if (error.code === 'AGENT_EXISTS') throw new UserError(error.message, 'choose another "id", drop it to derive one from the name, or use "chatos agents update ID --file F"');
    throw new UserError(error.message, 'list agents with "chatos agents list"');
  }
}

/** What an ACP agent's terminal level lets it do, as `show` and `trust` say it (docs/using/acp.md#terminals). */
const terminalText = (level: AcpTerminalLevel | undefined) => (level === 'ask' ? 'ask (it may run commands inside its roots, each asked first)' : 'off (its terminal requests are refused)');

function printAgent(io: CliIo, view: ReturnType<typeof agentView>): void {
  const { agent, serverIds, prompt } = view;
  io.out(`${agent.id}  ${agent.name}`);
  if (agent.description) io.out(`  ${agent.description}`);
  io.out(`  host app: ${agent.hostAppId}   language: ${agent.language}`);
  if (agent.acp) {
    io.out(`  ACP program: ${[agent.acp.command, ...agent.acp.args].map((part) => JSON.stringify(part)).join(' ')}`);
    io.out(`  terminal: ${terminalText(agent.acp.terminal)}`);
  }
  io.out(`  apps (${agent.uiApps.length}):`);
  for (const app of agent.uiApps) {
    io.out(`    ${app.pluginId}/${app.appId}  mcp: ${app.mcp ? 'on' : 'off'}  prompt: ${app.prompt ? 'on' : 'off'}`);
    for (const id of app.mcpServerIds) io.out(`      server ${id}`);
    for (const id of app.promptIds) io.out(`      prompt ${id}`);
  }
  const roots = agent.roots ?? [];
  io.out(`  workspace roots (${roots.length}):${roots.length ? '' : ' none'}`);
  for (const folder of roots) io.out(`    ${folder}`);
  io.out(`  servers offered (${serverIds.length}):`);
  for (const id of serverIds) io.out(`    ${id}`);
  io.out(`  prompt (${prompt.parts.map((p) => `${p.id} [${p.lang}]`).join(', ') || 'none'}):`);
  if (prompt.text) for (const line of prompt.text.split('\n')) io.out(line ? `    ${line}` : '');
}

/** After create or update: the file's warnings, then the agent as resolved now, then what no longer resolves. */
function reportWritten(io: CliIo, json: boolean, host: Host, agent: Agent, verb: 'created' | 'updated', warnings: Problem[]): void {
  const view = agentView(resolve(host, agent));
  printProblems(io, warnings);
  if (json) printJson(io, view);
  else io.out(`${verb} agent ${agent.id} (${view.serverIds.length} server(s), ${view.prompt.parts.length} prompt part(s))`);
  printProblems(io, view.problems);
}

export async function list(cli: CliContext, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withReadOnlyHost(options, (host) => {
    const rows = host.agents.list().map((agent) => ({ agent, problems: resolve(host, agent).problems.length }));
    if (options.json) printJson(io, { agents: rows.map((r) => ({ ...r.agent, problems: r.problems })) });
    else if (!rows.length) io.out('no agents yet; create one with "chatos agents create --file agent.json"');
    else {
      io.out(`agents (${rows.length}):`);
      for (const { agent, problems } of rows) {
        io.out(`  ${agent.id}  ${agent.name}  [${agent.hostAppId}, ${agent.language}, ${agent.uiApps.length} app(s)]${problems ? `  ${problems} problem(s): chatos agents show ${agent.id}` : ''}`);
      }
    }
  });
  cli.exitCode = 0;
}

export async function show(cli: CliContext, id: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withReadOnlyHost(options, (host) => {
    const view = agentView(resolve(host, findAgent(host, id)));
    if (options.json) printJson(io, view);
    else printAgent(io, view);
    printProblems(io, view.problems);
  });
  cli.exitCode = 0;
}

export async function create(cli: CliContext, opts: { file: string }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const input = readAgentFile(io, opts.file);
  await withStartedHost(options, async (host) => {
    const agent = storeWrite(io, input.file, () => host.agents.create(input.value));
    await commit(host);
    reportWritten(io, options.json, host, agent, 'created', input.warnings);
  });
  cli.exitCode = 0;
}

export async function update(cli: CliContext, id: string, opts: { file: string }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const input = readAgentFile(io, opts.file);
  await withStartedHost(options, async (host) => {
    findAgent(host, id);
    const fileId = (input.value as { id?: unknown } | null)?.id;
    if (fileId !== undefined && fileId !== id) {
      throw new UserError(`${input.file} names agent "${String(fileId)}", not "${id}"; an agent's id cannot change`, `remove "id" from the file or set it to "${id}"`);
    }
    const agent = storeWrite(io, input.file, () => host.agents.update(id, input.value));
    await commit(host);
    reportWritten(io, options.json, host, agent, 'updated', input.warnings);
  });
  cli.exitCode = 0;
}

/** `chatos agents trust ID`: shows what the ACP agent's program runs (as the plugin trust plan does), then trusts it as it is. */
export async function trust(cli: CliContext, id: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    const found = findAgent(host, id);
    if (!found.acp) throw new UserError(`agent "${id}" is not of kind "acp": it runs no program to trust`, `see what it is: chatos agents show ${id}`);
    const { agent, warnings } = host.agents.trustProgram(found.id);
    await commit(host);
    const program = agent.acp!;
    if (options.json) {
      printJson(io, { trusted: agent.id, command: program.command, args: program.args, env: Object.keys(program.env ?? {}), terminal: program.terminal ?? 'off', warnings });
      return;
    }
    io.out(`trusted the program of agent ${agent.id}:`);
    io.out(`  runs: ${[program.command, ...program.args].map((part) => JSON.stringify(part)).join(' ')} (as written, never through a shell)`);
    const names = Object.keys(program.env ?? {});
    if (names.length) io.out(`  environment it sets: ${names.join(', ')}`);
    io.out(`  terminal: ${terminalText(program.terminal)}`);
    for (const warning of warnings) io.out(`  warning: ${warning.name} decides ${warning.why}`);
    io.out('  a change to its command, arguments or environment stops it from starting until you trust it again');
  });
  cli.exitCode = 0;
}

export async function deleteAgent(cli: CliContext, id: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    findAgent(host, id);
    host.agents.delete(id);
    await commit(host);
    if (options.json) printJson(io, { deleted: id });
    else io.out(`deleted agent ${id}`);
  });
  cli.exitCode = 0;
}
