import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/mcpBuiltin.js');

export function registerMcpBuiltin(mcp: Command, cli: CliContext): void {
  const builtin = mcp.command('builtin').description('the built-in tools (time, fetch, calculator): served inside ChatOS, nothing to install; each off until switched on');

  builtin
    .command('list')
    .description('each built-in tool, whether it is on, and its tools')
    .action(lazyAction(cli, actions, (a) => a.list));

  builtin
    .command('on')
    .description('switch a built-in tool on: it is registered as chatos::NAME and can be picked for agents')
    .argument('<name>', 'time, fetch or calculator')
    .option('--allow-private-addresses', 'fetch only: also fetch private, loopback and link-local addresses')
    .option('--refuse-private-addresses', 'fetch only: refuse private, loopback and link-local addresses again (the default)')
    .action(lazyAction(cli, actions, (a) => a.on));

  builtin
    .command('off')
    .description('switch a built-in tool off: it is unregistered, and no agent is offered it')
    .argument('<name>', 'time, fetch or calculator')
    .action(lazyAction(cli, actions, (a) => a.off));
}
