import type { Command } from 'commander';
import type { GotPrompt, McpPrompt } from '../../shared/mcpPrompts.js';
import { ownValue } from '../../shared/ownKeys.js';
import { globalOptions } from '../globalOptions.js';
import { printJson, UsageError, UserError, type CliContext, type CliIo } from '../output.js';
import { pairsOf } from '../pairOption.js';

import { asServerCaller, base64Bytes, bytesText, didYouMean, serverStep } from './mcpCaller.js';
import type { CallerOptions } from './tools.js';

/**
 * `chatos mcp prompts` and `chatos mcp prompt`: a server's MCP prompts
 * through the host's one path (host.tools.prompts, as the composer's slash
 * commands use it): the caller's access checked on each request, every get
 * audited and its result bounded (docs/using/slash-commands.md#limits).
 */

const firstLine = (text: string) => text.split('\n')[0]!;

function printPrompts(io: CliIo, serverId: string, prompts: McpPrompt[], flags: string): void {
  if (!prompts.length) {
    io.out(`${serverId} offers no prompts`);
    return;
  }
  io.out(`${prompts.length} prompt(s) of ${serverId}:`);
  for (const p of prompts) {
    const about = [p.title, p.description ? firstLine(p.description) : undefined].filter(Boolean).join(': ');
    io.out(`  ${p.name}${about ? `  ${about}` : ''}`);
    for (const a of p.arguments) io.out(`      --arg ${a.name}=…${a.required ? '  (required)' : ''}${a.description ? `  ${firstLine(a.description)}` : ''}`);
  }
  io.out(`get one: chatos mcp prompt ${serverId} NAME [--arg K=V]… ${flags}`);
}

/** The messages as a person reads them: each with its role; an image named by its type, mimeType and size, never its data. */
function printMessages(io: CliIo, got: GotPrompt): void {
  for (const message of got.messages) {
    io.out(`[${message.role}]`);
    for (const piece of message.content) io.out(piece.type === 'text' ? piece.text : `[image ${piece.mimeType}, ${bytesText(base64Bytes(piece.data))}]`);
  }
}

/** The --arg options against the arguments the prompt declares (the host checks them again): a wrong one is bad usage, naming it. */
function checkArguments(prompt: McpPrompt, args: Record<string, string>): void {
  const declared = prompt.arguments.map((a) => a.name);
  const its = `its arguments: ${declared.join(', ') || 'none'}`;
  for (const key of Object.keys(args)) if (!declared.includes(key)) throw new UsageError(`prompt "${prompt.name}" has no argument "${key}" (${its})`);
  const missing = prompt.arguments.filter((a) => a.required && !ownValue(args, a.name)?.trim()).map((a) => `--arg ${a.name}=…`);
  if (missing.length) throw new UsageError(`prompt "${prompt.name}" needs ${missing.join(' and ')} (${its})`);
}

export async function prompts(cli: CliContext, serverId: string, opts: CallerOptions, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await asServerCaller(command, io, serverId, opts, async (host, { caller, flags }) => {
    const prompts = await serverStep(
      () => host.tools.prompts.listOf(caller, serverId),
      (message) => new UserError(`server "${serverId}" did not list its prompts: ${message}`),
    );
    if (options.json) printJson(io, { serverId, prompts });
    else printPrompts(io, serverId, prompts, flags);
  });
  cli.exitCode = 0;
}

export async function prompt(cli: CliContext, serverId: string, name: string, opts: CallerOptions & { arg: string[] }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const args = pairsOf(opts.arg, '--arg');
  await asServerCaller(command, io, serverId, opts, async (host, { caller, flags }) => {
    const listFailed = (message: string) => new UserError(`server "${serverId}" did not list its prompts: ${message}`);
    // The name is checked against the server's list first, so a typo is answered with close matches and this command's fix.
    const prompts = await serverStep(() => host.tools.prompts.listOf(caller, serverId), listFailed);
    const prompt = prompts.find((p) => p.name === name);
    if (!prompt) {
      const names = prompts.map((p) => p.name);
      throw new UserError(`server "${serverId}" has no prompt "${name}"${didYouMean(name, names)}`, `see its prompts: chatos mcp prompts ${serverId} ${flags}`);
    }
    checkArguments(prompt, args);
    const got = await serverStep(() => host.tools.prompts.get(caller, serverId, name, args), listFailed);
    if (options.json) printJson(io, got);
    else printMessages(io, got);
    for (const note of got.notes) io.err(`note: ${note}`);
  });
  cli.exitCode = 0;
}
