import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/mcpSignIn.js');

export function registerMcpSignIn(mcp: Command, cli: CliContext): void {
  mcp
    .command('login')
    .description('sign in to a remote server that asks for it (OAuth): opens the sign-in page in your browser and waits for it to come back')
    .argument('<name>', "the server's name in mcp.yaml")
    .option('--no-browser', 'only print the page to open (for a terminal on another machine)')
    .option('--timeout <seconds>', 'how long to wait for the browser (default 300)')
    .action(lazyAction(cli, actions, (a) => a.login));

  mcp
    .command('logout')
    .description("sign out of a remote server: forgets its tokens and ChatOS's registration with it (your session on its sign-in page is the browser's)")
    .argument('<name>', "the server's name in mcp.yaml")
    .action(lazyAction(cli, actions, (a) => a.logout));
}
