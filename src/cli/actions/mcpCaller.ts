import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Command } from 'commander';
import { ResourceError } from '../../core/facades/errors.js';
import type { Caller } from '../../core/facades/tools.js';
import type { Host } from '../../core/host.js';
import { suggestClosest } from '../../core/facades/userInput.js';
import { globalOptions, withReadOnlyHost } from '../globalOptions.js';
import { printProblems, UserError, type CliIo } from '../output.js';
import { asUserError, callerOf, checkCallerOptions, type CallerOptions } from './tools.js';

/**
 * What `chatos mcp resources|read|prompts|prompt` share: the caller, built
 * exactly as `chatos call` builds it (--app or --agent; the host checks its
 * grants on every request), the server checked by id first so a typo gets
 * close matches, and the host's refusals as the CLI reports them (exit 1
 * with the fix).
 */

interface ServerCall {
  caller: Caller;
  /** The options that named the caller, for a fix line to repeat. */
  flags: string;
}

/**
 * Runs a command's work in a host that only looks (reads and gets are still
 * audited), as the caller its options name, on a server the host knows.
 * Bad caller options exit 2 before any host starts.
 */
export function asServerCaller<T>(command: Command, io: CliIo, serverId: string, opts: CallerOptions, use: (host: Host, call: ServerCall) => Promise<T>): Promise<T> {
  checkCallerOptions(opts);
  return withReadOnlyHost(globalOptions(command), (host) => use(host, serverCaller(host, io, serverId, opts)));
}

/** The caller of the command, on a server the host knows; an unknown id exits 1 naming it, with close matches. */
function serverCaller(host: Host, io: CliIo, serverId: string, opts: CallerOptions): ServerCall {
  if (!host.mcp.definition(serverId)) {
    const ids = host.mcp.definitions().map((def) => def.id);
    throw new UserError(`no MCP server "${serverId}"${didYouMean(serverId, ids)}`, "see every server's registry id: chatos registry servers");
  }
  const { caller, problems } = callerOf(host, opts);
  printProblems(io, problems);
  return { caller, flags: opts.agent ? `--agent ${opts.agent}` : `--app ${opts.app}` };
}

/**
 * Runs one request of the host's and reports its refusal as the user's to
 * fix: the access rule's (not granted, not selected, an untrusted plugin's
 * server), the server's failure to start, or the server's own error to the
 * request, in its words, with `serverFix`.
 */
export async function serverStep<T>(step: () => Promise<T>, serverFix: (message: string) => UserError): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ResourceError) throw new UserError(error.reason, error.fix);
    if (error instanceof McpError) throw serverFix(error.message.replace(/^(MCP error -?\d+: )+/, ''));
    return asUserError(error);
  }
}

/** "; did you mean "a" or "b"?" of the candidates close to `word`, or nothing. */
export function didYouMean(word: string, candidates: string[]): string {
  const close = suggestClosest(word, candidates);
  return close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : '';
}

/** Bytes of base64 data, decoded. */
export const base64Bytes = (data: string) => Buffer.byteLength(data, 'base64');

/** "1,234 bytes". */
export const bytesText = (bytes: number) => `${bytes.toLocaleString('en')} bytes`;
