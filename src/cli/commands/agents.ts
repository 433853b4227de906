import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';
import { registerAgentMemory } from './agentMemory.js';

const actions = () => import('../actions/agents.js');

export function registerAgents(program: Command, cli: CliContext): void {
  const agents = program.command('agents').description('list, show, create, update and delete agents (the apps each uses: uiApps), and their memories');
  registerAgentMemory(agents, cli);

  agents
    .command('list')
    .description('every agent, with how many of its ids no longer resolve')
    .action(lazyAction(cli, actions, (a) => a.list));

  agents
    .command('show')
    .description('one agent: its apps, the servers it is offered, its prompt text, what no longer resolves')
    .argument('<id>', 'agent id')
    .action(lazyAction(cli, actions, (a) => a.show));

  agents
    .command('create')
    .description('create an agent from a JSON (or YAML) file; its id is "id", else derived from "name"')
    .requiredOption('--file <file>', 'the agent: {"name", "hostAppId"?, "language"?, "uiApps": [...]}')
    .action(lazyAction(cli, actions, (a) => a.create));

  agents
    .command('update')
    .description("replace an agent's fields with a file's (its id stays)")
    .argument('<id>', 'agent id')
    .requiredOption('--file <file>', 'the agent, as for create')
    .action(lazyAction(cli, actions, (a) => a.update));

  agents
    .command('trust')
    .description("trust an ACP agent's program as it is now (shows its command line and environment); it runs only while they stay as trusted")
    .argument('<id>', 'agent id')
    .action(lazyAction(cli, actions, (a) => a.trust));

  agents
    .command('delete')
    .description('delete an agent')
    .argument('<id>', 'agent id')
    .action(lazyAction(cli, actions, (a) => a.deleteAgent));
}
