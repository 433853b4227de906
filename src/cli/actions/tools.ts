import type { Command } from 'commander';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError, McpRuntimeError } from '../../core/facades/errors.js';
import type { Caller, Flow } from '../../core/facades/tools.js';
import type { Host } from '../../core/host.js';
import type { Problem } from '../../shared/problems.js';
import { hasErrors } from '../../shared/problemText.js';
import { answerQuestions } from '../chatQuestions.js';
import { oneAtATime } from '../confirmationQuestion.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, printProblems, UsageError, UserError, type CliContext, type CliIo } from '../output.js';

export interface CallerOptions {
  app?: string;
  agent?: string;
  flow: string;
  conversation: string;
}

/** Checks the caller flags (bad usage exits 2 before any host starts). */
export function checkCallerOptions(opts: CallerOptions): Flow {
  if (opts.flow !== 'main' && opts.flow !== 'sub') throw new UsageError(`--flow must be main or sub, not "${opts.flow}"`);
  if (opts.app !== undefined && opts.agent !== undefined) throw new UsageError('give --app APP or --agent ID, not both (an agent acts as its own host app)');
  if (!opts.app && !opts.agent) throw new UsageError('say who is calling: --agent ID or --app APP (for example --app chatos)');
  return opts.flow;
}

/** The caller: an app as itself, or an agent (its host app, its selection); an unknown agent exits 1 with close matches. */
export function callerOf(host: Host, opts: CallerOptions): { caller: Caller; problems: Problem[] } {
  const flow = checkCallerOptions(opts);
  if (opts.agent) return host.tools.callers.agent(opts.agent, flow, opts.conversation);
  return { caller: host.tools.callers.app(opts.app!, flow, opts.conversation), problems: [] };
}

const callerName = (caller: Caller) => (caller.agentId ? `agent ${caller.agentId} (as ${caller.appId})` : caller.appId);

/** Prints a tool result for a person: text as is, images as the files they were saved to. */
function printResult(io: CliIo, result: CallToolResult): void {
  for (const item of result.content ?? []) {
    if (item.type === 'text') io.out(item.text);
    else if (item.type === 'resource_link') io.out(`[${item.mimeType ?? 'file'}] ${item.uri}`);
    else io.out(JSON.stringify(item));
  }
  // Servers also put structured content in a text item (MCP asks them to); print it only when they did not.
  if (result.structuredContent && !(result.content ?? []).some((item) => item.type === 'text')) io.out(JSON.stringify(result.structuredContent, null, 2));
}

export function asUserError(error: unknown): never {
  if (error instanceof GatewayError) throw new UserError(error.reason, error.fix);
  if (error instanceof McpRuntimeError) throw new UserError(error.message, error.fix);
  throw error;
}

export async function tools(cli: CliContext, opts: CallerOptions, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  checkCallerOptions(opts);
  await withReadOnlyHost(options, async (host) => {
    const { caller, problems: agentProblems } = callerOf(host, opts);
    if (!caller.agentId && !host.registry.isKnownApp(caller.appId)) throw new UserError(`no app "${caller.appId}" is registered`, 'list apps with "chatos registry apps"');
    const listed = await host.tools.list(caller);
    const problems = [...agentProblems, ...listed.problems, ...host.mcp.problems];
    if (options.json) printJson(io, { caller, tools: listed.tools, reminders: listed.reminders, problems });
    else {
      io.out(`${listed.tools.length} tool(s) for ${callerName(caller)} (${caller.flow} flow):`);
      for (const tool of listed.tools) io.out(`  ${tool.name}  [${tool.permission}]  ${tool.serverId}${tool.description ? `  ${tool.description.split('\n')[0]}` : ''}`);
    }
    printProblems(io, problems);
    cli.exitCode = hasErrors(listed.problems) ? 1 : 0;
  });
}

export async function call(cli: CliContext, toolName: string, opts: CallerOptions & { args: string; yes?: boolean }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  checkCallerOptions(opts);
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(opts.args) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new UsageError('--args must be a JSON object, e.g. \'{"name": "Ada"}\'');

  await withStartedHost(options, async (host) => {
    const { caller } = callerOf(host, opts);
    // The tool's confirmation and what the server asks while it runs (a question, a completion of the model) are
    // answered as in a chat: on the terminal, or declined at once without one (what servers ask with --json too),
    // never left to wait for its timeout. No "always allow" here: no agent calls.
    const ask = io.ask && oneAtATime(io.ask);
    const answers = answerQuestions(host, io, { yes: opts.yes === true, always: false, ...(ask ? { ask } : {}), ...(ask && !options.json ? { serverAsk: ask } : {}) });
    let outcome;
    try {
      outcome = await host.tools.call(caller, toolName, args);
    } catch (error) {
      asUserError(error);
    } finally {
      answers.stop();
    }
    if (answers.declinedWithoutTerminal() > 0) {
      throw new UserError(`${toolName} needs confirmation and there is no terminal to ask on; it was not run`, 'rerun it with --yes to approve it');
    }
    // A tool of the settings server may have changed the admin DB: saved before the result is shown.
    await commit(host);
    if (options.json) printJson(io, outcome);
    else {
      printResult(io, outcome.result);
      for (const reminder of outcome.reminders) io.err(`note: ${reminder}`);
    }
    cli.exitCode = outcome.result.isError ? 1 : 0;
  });
}
