import type { Command } from 'commander';
import { MemoryError } from '../../core/facades/errors.js';
import type { Host } from '../../core/host.js';
import { globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, UsageError, UserError, type CliContext } from '../output.js';

/** `chatos agents memory …`: an agent's memories, through the same core as the Memory tab and the settings tools (host.agents.memory). */

async function memoryStep<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof MemoryError) throw new UserError(`${error.message} [${error.code}]`, error.hint);
    throw error;
  }
}

function limitOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`"${value}" is not a whole number above 0`);
  return n;
}

/** One line per memory: id, when it was saved, who saved it, its text on one line. */
const memoryLine = (m: { id: string; updatedAt: string; by: string; text: string; score?: number }) =>
  `  ${m.id}  ${m.updatedAt}  by ${m.by}${m.score === undefined ? '' : `  score ${m.score.toFixed(2)}`}\n    ${m.text.replace(/\s*\n\s*/g, ' ⏎ ')}`;

/** `findAgent`: the agent with this id, or exit 1 with close matches (agents.ts, passed in rather than imported: it registers these). */
export function registerAgentMemory(agents: Command, cli: CliContext, findAgent: (host: Host, id: string) => unknown): void {
  const { io } = cli;
  const memory = agents.command('memory').description("an agent's memories (what it saved with memory_remember): list, search, forget");

  memory
    .command('list')
    .description('its memories, the most recently saved first; with --query, those with these words, best first')
    .argument('<agent>', 'agent id')
    .option('--query <words>', 'only memories with these words')
    .option('--limit <n>', 'at most this many', limitOption)
    .action(async (agentId: string, opts: { query?: string; limit?: number }, command: Command) => {
      const options = globalOptions(command);
      await withReadOnlyHost(options, (host: Host) =>
        memoryStep(() => {
          findAgent(host, agentId);
          const listing = host.agents.memory.list(agentId, { ...(opts.query ? { query: opts.query } : {}), ...(opts.limit ? { limit: opts.limit } : {}) });
          if (options.json) return printJson(io, listing);
          io.out(`${listing.space}: ${listing.memories.length} of ${listing.total} memor${listing.total === 1 ? 'y' : 'ies'} (memory ${listing.enabled ? 'on' : 'off'} for ${agentId})`);
          for (const m of listing.memories) io.out(memoryLine(m));
        }),
      );
      cli.exitCode = 0;
    });

  memory
    .command('forget')
    .description('forget one memory, by the id "list" shows')
    .argument('<agent>', 'agent id')
    .argument('<memory>', 'memory id (m_…)')
    .action(async (agentId: string, memoryId: string, _opts: unknown, command: Command) => {
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
    });
}
