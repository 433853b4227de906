import type { Command } from 'commander';
import { MemoryError } from '../../core/facades/errors.js';
import type { Host } from '../../core/host.js';
import { globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, UserError, type CliContext } from '../output.js';
import { findAgent } from './agents.js';

async function memoryStep<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof MemoryError) throw new UserError(`${error.message} [${error.code}]`, error.hint);
    throw error;
  }
}

/** One line per memory: id, when it was saved, who saved (or last changed) it, its text on one line. */
const memoryLine = (m: { id: string; updatedAt: string; by: string; changedBy?: string; text: string; score?: number }) =>
  `  ${m.id}  ${m.updatedAt}  ${m.changedBy ? `changed by ${m.changedBy} (first saved by ${m.by})` : `by ${m.by}`}${m.score === undefined ? '' : `  score ${m.score.toFixed(2)}`}\n    ${m.text.replace(/\s*\n\s*/g, ' ⏎ ')}`;

export async function memoryList(cli: CliContext, agentId: string, opts: { query?: string; limit?: number }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withReadOnlyHost(options, (host: Host) =>
    memoryStep(async () => {
      findAgent(host, agentId);
      const listing = await host.agents.memory.list(agentId, { ...(opts.query ? { query: opts.query } : {}), ...(opts.limit ? { limit: opts.limit } : {}) });
      if (options.json) return printJson(io, listing);
      io.out(`${listing.space}: ${listing.memories.length} of ${listing.total} memor${listing.total === 1 ? 'y' : 'ies'} (memory ${listing.enabled ? 'on' : 'off'} for ${agentId})`);
      for (const m of listing.memories) io.out(memoryLine(m));
    }),
  );
  cli.exitCode = 0;
}

export async function memoryForget(cli: CliContext, agentId: string, memoryId: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, (host) =>
    memoryStep(async () => {
      findAgent(host, agentId);
      const forgotten = await host.agents.memory.forget(agentId, memoryId);
      if (options.json) printJson(io, { forgotten });
      else io.out(`forgot ${forgotten.id} of agent ${agentId}`);
    }),
  );
  cli.exitCode = 0;
}
