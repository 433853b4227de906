import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/tools.js');

/** Who calls (actions/tools.ts's CallerOptions): `chatos tools`, `call` and the `mcp` commands that ask a server. */
export function addCallerOptions(command: Command): Command {
  return command
    .option('--app <app>', 'act as this app: the tools it may see, its grants')
    .option('--agent <id>', 'act as this agent (its app and selection)')
    .option('--flow <flow>', 'main or sub', 'main')
    .option('--conversation <id>', 'conversation id (leases are per conversation)', 'cli');
}

export function registerTools(program: Command, cli: CliContext): void {
  addCallerOptions(program.command('tools').description('the tools a caller would be offered, with server and permission')).action(lazyAction(cli, actions, (a) => a.tools));

  addCallerOptions(program.command('call').description('call a tool through the gateway').argument('<tool>', 'tool name as offered (see chatos tools)'))
    .option('--args <json>', 'arguments as a JSON object', '{}')
    .option('--yes', 'approve a confirm-level tool without asking')
    .action(lazyAction(cli, actions, (a) => a.call));
}
