import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/init.js');

export function registerInit(program: Command, cli: CliContext): void {
  program
    .command('init')
    .description('scaffold a working plugin: a UI app with its own MCP server and zh/en prompts')
    .argument('<dir>', 'folder to create (must not exist or be empty)')
    .option('--id <id>', 'plugin id (default: from the folder name)')
    .option('--name <name>', 'display name (default: the id)')
    .action(lazyAction(cli, actions, (a) => a.init));
}
