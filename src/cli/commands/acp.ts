import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/acp.js');

export function registerAcp(program: Command, cli: CliContext): void {
  program
    .command('acp')
    .description('run a ChatOS agent as an Agent Client Protocol agent over stdio, for editors (Zed, JetBrains, Neovim)')
    .requiredOption('--agent <id>', 'the ChatOS agent each ACP session chats with')
    .action(lazyAction(cli, actions, (a) => a.acp));
}
