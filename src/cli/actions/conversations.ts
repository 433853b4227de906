import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import type { Host } from '../../core/host.js';
import { WorkspaceRootsError } from '../../core/facades/errors.js';
import type { Conversation } from '../../shared/chat.js';
import { ExportFormatSchema } from '../../shared/chat.js';
import { messageLines } from '../chatPrinter.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, UsageError, UserError, type CliContext, type CliIo } from '../output.js';
import { asUserError, chatStep } from './chat.js';

function statusText(conversation: Conversation): string {
  const { status } = conversation;
  switch (status.kind) {
    case 'idle':
      return 'new';
    case 'running':
      return `answering (pid ${status.pid})`;
    case 'done':
      return 'done';
    case 'stopped':
      return status.stop.kind === 'error' ? `stopped: ${status.stop.message}` : `stopped (${status.stop.kind})`;
  }
}

function printConversation(io: CliIo, c: Conversation): void {
  io.out(`${c.id}  ${new Date(c.updatedAt).toISOString()}  ${c.agentId}  ${c.title || '(untitled)'}  [${statusText(c)}]`);
}

export async function list(cli: CliContext, opts: { agent?: string; all?: boolean }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withReadOnlyHost(options, (host) => {
    const list = host.chat.list({ includeChildren: opts.all === true, ...(opts.agent ? { agentId: opts.agent } : {}) });
    if (options.json) return printJson(io, { conversations: list });
    if (!list.length) return io.out('no conversations yet; start one: chatos chat --agent ID -m "hello"');
    for (const c of list) printConversation(io, c);
  });
}

export async function show(cli: CliContext, id: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withReadOnlyHost(options, (host) => {
    const detail = chatStep(() => host.chat.get(id));
    for (const notice of detail.notices) io.err(`notice: ${notice}`);
    if (options.json) return printJson(io, detail);
    printConversation(io, detail.conversation);
    const { totals } = detail.conversation;
    io.out(`  ${totals.answers} answer(s), ${totals.inputTokens} tokens in / ${totals.outputTokens} out${totals.cost ? `, $${totals.cost.toFixed(4)}` : ''}`);
    for (const message of detail.messages) {
      for (const line of messageLines(message)) io.out(line);
      const siblings = detail.siblings[message.id];
      if (siblings) io.out(`  (${siblings.indexOf(message.id) + 1} of ${siblings.length} versions)`);
    }
  });
}

export async function deleteConversation(cli: CliContext, id: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    const result = await host.chat.delete(id).catch(asUserError);
    if (!result.deleted) throw new UserError(`no conversation "${id}"`, 'list them with: chatos conversations list');
    await commit(host);
    if (options.json) printJson(io, { id, ...result });
    else io.out(`deleted conversation ${id}`);
  });
}

export async function exportConversation(cli: CliContext, id: string, opts: { format: string; output?: string }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const format = ExportFormatSchema.safeParse(opts.format);
  if (!format.success) throw new UsageError(`--format must be md or json, not "${opts.format}"`);
  await withReadOnlyHost(options, (host) => {
    const exported = chatStep(() => host.chat.export(id, format.data));
    if (!opts.output) return io.out(exported.text);
    fs.writeFileSync(opts.output, exported.text, { flag: 'wx' });
    io.out(`wrote ${opts.output}`);
  });
}

export async function search(cli: CliContext, text: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  if (!text.trim()) throw new UsageError('give the text to look for');
  await withReadOnlyHost(options, (host) => {
    const hits = host.chat.search(text);
    if (options.json) return printJson(io, { hits });
    if (!hits.length) return io.out(`nothing found for "${text}"`);
    for (const hit of hits) io.out(`${hit.conversationId}  ${hit.title}  ${hit.role}: ${hit.snippet}`);
  });
}

export async function roots(cli: CliContext, id: string, folders: string[], opts: { clear?: boolean }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  if (opts.clear && folders.length) throw new UsageError('give folders or --clear, not both');
  const show = (host: Host) => {
    const view = host.mcp.roots.view(id);
    if (options.json) return printJson(io, { id, ...view });
    io.out(`${id}: ${view.own ? 'its own roots' : "its agent's roots"} (${view.roots.length})`);
    for (const folder of view.roots) io.out(`  ${folder}`);
  };
  const known = (host: Host) => {
    if (!host.chat.list({ includeChildren: true }).some((c) => c.id === id)) throw new UserError(`no conversation "${id}"`, 'list them with: chatos conversations list');
  };
  if (!opts.clear && !folders.length) {
    return withReadOnlyHost(options, (host) => {
      known(host);
      show(host);
    });
  }
  await withStartedHost(options, async (host) => {
    known(host);
    try {
      host.mcp.roots.set(id, opts.clear ? null : folders.map((folder) => path.resolve(folder)));
    } catch (error) {
      if (error instanceof WorkspaceRootsError) throw new UserError(error.message, 'give folders that exist, each once');
      throw error;
    }
    await commit(host);
    show(host);
  });
}
