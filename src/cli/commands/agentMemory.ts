import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import { UsageError, type CliContext } from '../output.js';

const actions = () => import('../actions/agentMemory.js');

function limitOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`"${value}" is not a whole number above 0`);
  return n;
}

/** `chatos agents memory …`: an agent's memories, through the same core as the Memory tab and the settings tools (host.agents.memory). */
export function registerAgentMemory(agents: Command, cli: CliContext): void {
  const memory = agents.command('memory').description("an agent's memories (what it saved with memory_remember): list, search, forget");

  memory
    .command('list')
    .description('its memories, the most recently saved first; with --query, those with these words, best first')
    .argument('<agent>', 'agent id')
    .option('--query <words>', 'only memories with these words')
    .option('--limit <n>', 'at most this many', limitOption)
    .action(lazyAction(cli, actions, (a) => a.memoryList));

  memory
    .command('forget')
    .description('forget one memory, by the id "list" shows')
    .argument('<agent>', 'agent id')
    .argument('<memory>', 'memory id (m_…)')
    .action(lazyAction(cli, actions, (a) => a.memoryForget));
}
