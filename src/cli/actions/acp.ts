import { Readable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import type { Command } from 'commander';
import { serveAcp } from '../acpServer.js';
import { findAgent } from './agents.js';
import { globalOptions, withStartedHost } from '../globalOptions.js';
import { UsageError, type CliContext } from '../output.js';

/** `chatos acp --agent ID`: stdout carries the protocol alone (docs/using/acp.md#chatos-as-an-acp-agent); everything else goes to stderr. */
export async function acp(cli: CliContext, opts: { agent: string }, command: Command): Promise<void> {
  const { io } = cli;
  const write = io.write;
  if (!write) throw new UsageError('chatos acp speaks the Agent Client Protocol on stdout, which this run cannot write to as a stream');
  const decoder = new TextDecoder();
  const output = new WritableStream<Uint8Array>({ write: (chunk) => write(decoder.decode(chunk, { stream: true })) });
  const input = Readable.toWeb(io.stdin as Readable) as ReadableStream<Uint8Array>;
  await withStartedHost(globalOptions(command), async (host) => {
    findAgent(host, opts.agent);
    io.err(`chatos acp: serving agent "${opts.agent}" over stdio`);
    await serveAcp(host, opts.agent, ndJsonStream(output, input));
  });
}
