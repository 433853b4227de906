import type { GetPromptResult, Prompt, PromptMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Problem } from '../../shared/problems.js';
import { MAX_COMPLETE_CHARS, MAX_PROMPT_ARG_CHARS, MAX_PROMPT_ARGS, type GotPrompt, type McpPrompt, type McpPromptMessage } from '../../shared/mcpPrompts.js';
import type { ServerDefinition } from '../../shared/mcp.js';
import { ownValue } from '../../shared/ownKeys.js';
import type { AuditDraft } from '../audit/auditLine.js';
import type { Lease } from '../mcp/connection/connectionManager.js';
import { withoutStackTraces } from '../mcp/stackTrace.js';
import { GatewayError } from './refusals.js';
import type { Caller } from './toolSource.js';

/** Characters of a prompt's result kept in all (text, and images by their base64 size); the rest is cut with a note (docs/using/slash-commands.md#limits). */
export const MAX_PROMPT_RESULT_CHARS = 200_000;
/** Messages of a result kept, suggestions of a completion kept, and characters of each suggestion and description. */
const MAX_MESSAGES = 50;
const MAX_SUGGESTIONS = 100;
const MAX_SUGGESTION_CHARS = 500;
const MAX_DESCRIPTION_CHARS = 1_000;

export interface McpPromptsDeps {
  /** The servers this caller may use now (grants, selection, switches, run gate). */
  visibleServers(caller: Caller): ServerDefinition[];
  /** The server if this caller may use it now, else the access rule's refusal, thrown. */
  usableServer(caller: Caller, serverId: string): ServerDefinition;
  /** The caller's conversation's instance of a server, started if need be (the run gate asked at its start). */
  instanceOf(server: ServerDefinition, caller: Caller): Promise<Lease>;
  audit(draft: AuditDraft): void;
  now(): number;
}

const cut = (text: string | undefined, max: number) => (text === undefined || text.length <= max ? text : `${text.slice(0, max)}…`);

/**
 * MCP prompts through one host path (docs/using/slash-commands.md): a
 * caller sees the prompts of the servers it may use now (an untrusted
 * plugin's server is never started or asked: the access rule's run gate
 * refuses it first), gets one with its arguments, bounded, and has its
 * arguments completed by the server. Every get is checked again at that
 * moment and recorded in the audit.
 */
export class McpPrompts {
  constructor(private readonly deps: McpPromptsDeps) {}

  /** The prompts of every server this caller may use, each server's in its order; a server that fails to start or list is a problem, not a failure. */
  async list(caller: Caller): Promise<{ prompts: McpPrompt[]; problems: Problem[] }> {
    const problems: Problem[] = [];
    const lists = await Promise.all(
      this.deps.visibleServers(caller).map(async (server) => {
        try {
          return await this.promptsOf(server, caller);
        } catch (error) {
          problems.push({
            severity: 'warning',
            code: 'PROMPTS_UNAVAILABLE',
            file: server.id,
            path: '',
            message: `server "${server.id}" did not list its prompts: ${withoutStackTraces((error as Error).message)}`,
          });
          return [];
        }
      }),
    );
    return { prompts: lists.flat(), problems };
  }

  /**
   * The prompts of one server, for a face that names it (the CLI): the
   * access rule's refusal, naming the server, when this caller may not use
   * it now; a failure to start or list is the caller's to report.
   */
  async listOf(caller: Caller, serverId: string): Promise<McpPrompt[]> {
    return this.promptsOf(this.deps.usableServer(caller, serverId), caller);
  }

  /** One prompt, got with `args` from its server: checked (access now, the arguments it declares, sizes), audited, its result bounded. */
  async get(caller: Caller, serverId: string, name: string, args: Record<string, string>): Promise<GotPrompt> {
    const { server, client, prompt } = await this.promptOf(caller, serverId, name);
    const entries = Object.entries(args);
    if (entries.length > MAX_PROMPT_ARGS) throw new GatewayError('BAD_ARGUMENTS', `prompt "${name}" was given ${entries.length} arguments; at most ${MAX_PROMPT_ARGS}`);
    const declared = new Set((prompt.arguments ?? []).map((a) => a.name));
    for (const [key, value] of entries) {
      if (!declared.has(key)) throw new GatewayError('BAD_ARGUMENTS', `prompt "${name}" of server "${serverId}" has no argument "${key}"`, `its arguments: ${[...declared].join(', ') || 'none'}`);
      if (typeof value !== 'string' || value.length > MAX_PROMPT_ARG_CHARS)
        throw new GatewayError('BAD_ARGUMENTS', `argument "${key}" of prompt "${name}" must be text of at most ${MAX_PROMPT_ARG_CHARS.toLocaleString('en')} characters`);
    }
    const missing = (prompt.arguments ?? []).filter((a) => a.required && !ownValue(args, a.name)?.trim()).map((a) => a.name);
    if (missing.length) throw new GatewayError('BAD_ARGUMENTS', `prompt "${name}" needs ${missing.map((m) => `"${m}"`).join(', ')}`, 'fill in every required argument');
    const started = this.deps.now();
    const record = (outcome: 'ok' | 'failed', error?: string) =>
      this.deps.audit({
        at: started,
        conversationId: caller.conversationId,
        appId: caller.appId,
        agentId: caller.agentId,
        flow: caller.flow,
        serverId: server.id,
        tool: 'prompts/get',
        permission: null,
        decision: 'auto',
        durationMs: this.deps.now() - started,
        outcome,
        reason: name,
        ...(error ? { error } : {}),
        // The argument names only: what the user typed may be private.
        callArgs: { prompt: name, arguments: entries.map(([key]) => key) },
      });
    let result: GetPromptResult;
    try {
      result = await client.get(name, args, server.timeoutMs);
    } catch (error) {
      const message = withoutStackTraces((error as Error).message);
      record('failed', message);
      throw new GatewayError('BAD_ARGUMENTS', `server "${serverId}" did not give prompt "${name}": ${message}`);
    }
    record('ok');
    return { serverId: server.id, name, ...(result.description ? { description: cut(result.description, MAX_DESCRIPTION_CHARS)! } : {}), ...boundedMessages(result.messages) };
  }

  /** The server's suggestions for one argument as the user types it; none when the server does not complete. */
  async complete(caller: Caller, serverId: string, name: string, argument: { name: string; value: string }, context: Record<string, string>): Promise<{ values: string[]; hasMore: boolean }> {
    const { server, client, prompt } = await this.promptOf(caller, serverId, name);
    if (!client.completes || !(prompt.arguments ?? []).some((a) => a.name === argument.name)) return { values: [], hasMore: false };
    const value = argument.value.slice(0, MAX_COMPLETE_CHARS);
    const known = Object.fromEntries(Object.entries(context).map(([key, text]) => [key, text.slice(0, MAX_COMPLETE_CHARS)]));
    const { completion } = await client.complete(name, { name: argument.name, value }, known, server.timeoutMs);
    const values = completion.values.filter((v): v is string => typeof v === 'string').slice(0, MAX_SUGGESTIONS);
    return { values: values.map((v) => v.slice(0, MAX_SUGGESTION_CHARS)), hasMore: completion.hasMore === true || completion.values.length > MAX_SUGGESTIONS };
  }

  /** A server's prompts on the caller's instance; none when it offers none. */
  private async promptsOf(server: ServerDefinition, caller: Caller): Promise<McpPrompt[]> {
    const lease = await this.deps.instanceOf(server, caller);
    const client = lease.connection.prompts;
    if (!client?.offered) return [];
    return (await client.list(server.timeoutMs)).map((prompt) => entryOf(server, prompt));
  }

  /** The server (checked for this caller now), its prompts client, and the prompt as it listed it; an unknown prompt is refused, naming it. */
  private async promptOf(caller: Caller, serverId: string, name: string) {
    const server = this.deps.usableServer(caller, serverId);
    const lease = await this.deps.instanceOf(server, caller);
    const client = lease.connection.prompts;
    const prompt = client?.offered ? (await client.list(server.timeoutMs)).find((p) => p.name === name) : undefined;
    if (!client || !prompt) throw new GatewayError('BAD_ARGUMENTS', `server "${serverId}" has no prompt "${name}"`, 'type / in the composer to see the prompts there are');
    return { server, client, prompt };
  }
}

function entryOf(server: ServerDefinition, prompt: Prompt): McpPrompt {
  return {
    serverId: server.id,
    serverName: server.name,
    name: prompt.name,
    ...(prompt.title ? { title: cut(prompt.title, 200)! } : {}),
    ...(prompt.description ? { description: cut(prompt.description, MAX_DESCRIPTION_CHARS)! } : {}),
    arguments: (prompt.arguments ?? [])
      .slice(0, MAX_PROMPT_ARGS)
      .map((a) => ({ name: a.name, ...(a.description ? { description: cut(a.description, MAX_DESCRIPTION_CHARS)! } : {}), required: a.required === true })),
  };
}

/**
 * A result's messages as the host sends them: text and images as they are,
 * an embedded text resource (or a text/* blob) as text naming its uri, a
 * link as a line saying what it is, a binary resource or audio as a note; everything past the cap (in characters,
 * images by their base64 size) cut with a note.
 */
function boundedMessages(messages: readonly PromptMessage[]): { messages: McpPromptMessage[]; notes: string[] } {
  const notes: string[] = [];
  let budget = MAX_PROMPT_RESULT_CHARS;
  let cutChars = 0;
  const out: McpPromptMessage[] = [];
  if (messages.length > MAX_MESSAGES) notes.push(`the prompt had ${messages.length} messages; the first ${MAX_MESSAGES} are kept`);
  for (const message of messages.slice(0, MAX_MESSAGES)) {
    const pieces = piecesOf(message, notes);
    const kept: McpPromptMessage['content'] = [];
    for (const piece of pieces) {
      const size = piece.type === 'text' ? piece.text.length : piece.data.length;
      if (size <= budget) {
        kept.push(piece);
        budget -= size;
      } else if (piece.type === 'text' && budget > 0) {
        kept.push({ ...piece, text: piece.text.slice(0, budget) });
        cutChars += size - budget;
        budget = 0;
      } else cutChars += size;
    }
    if (kept.length) out.push({ role: message.role, content: kept });
  }
  if (cutChars > 0) notes.push(`the prompt's result was over ${MAX_PROMPT_RESULT_CHARS.toLocaleString('en')} characters: ${cutChars.toLocaleString('en')} were cut`);
  return { messages: out, notes };
}

function piecesOf(message: PromptMessage, notes: string[]): McpPromptMessage['content'] {
  const content = message.content;
  switch (content.type) {
    case 'text':
      return [{ type: 'text', text: content.text }];
    case 'image':
      return [{ type: 'image', mimeType: content.mimeType, data: content.data }];
    case 'resource': {
      const resource = content.resource;
      const named = (text: string) => [{ type: 'text' as const, text: `Resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}:\n${text}`, resource: resource.uri }];
      if ('text' in resource && typeof resource.text === 'string') return named(resource.text);
      // A text file sent as a blob is still text (as a resource attached from the composer is).
      const bytes = 'blob' in resource && typeof resource.blob === 'string' && resource.mimeType?.startsWith('text/') ? Buffer.from(resource.blob, 'base64') : undefined;
      if (bytes && !bytes.includes(0)) return named(bytes.toString('utf8'));
      // Named by its type and size, so a face can say what was left out without its data.
      const about = [resource.mimeType, 'blob' in resource && typeof resource.blob === 'string' ? `${Buffer.byteLength(resource.blob, 'base64').toLocaleString('en')} bytes` : undefined].filter(
        Boolean,
      );
      notes.push(`the binary resource ${resource.uri}${about.length ? ` (${about.join(', ')})` : ''} is not sent: open it from the server's resources instead`);
      return [];
    }
    case 'resource_link':
      return [{ type: 'text', text: `Resource link: ${content.uri}${content.name ? ` (${content.name})` : ''}`, resource: content.uri }];
    case 'audio':
      notes.push(`the audio (${content.mimeType}) is not sent: models here are sent text and images only`);
      return [];
    default:
      notes.push(`a ${(content as { type: string }).type} piece is not sent: models here are sent text and images only`);
      return [];
  }
}
