import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';
import { collect } from '../pairOption.js';
import { addCallerOptions } from './tools.js';

const actions = () => import('../actions/mcpPromptCommands.js');

export function registerMcpPromptCommands(mcp: Command, cli: CliContext): void {
  addCallerOptions(
    mcp.command('prompts').description("a server's MCP prompts with their arguments (required ones marked), as the caller may see them").argument('<server>', 'a registry id, e.g. chatos::everything'),
  ).action(lazyAction(cli, actions, (a) => a.prompts));

  addCallerOptions(
    mcp
      .command('prompt')
      .description('get one MCP prompt of a server with its arguments and print the messages it gives, each with its role')
      .argument('<server>', 'a registry id, e.g. chatos::everything')
      .argument('<name>', 'the prompt, as chatos mcp prompts lists it'),
  )
    .option('--arg <K=V>', "one of the prompt's arguments (repeatable)", collect, [])
    .action(lazyAction(cli, actions, (a) => a.prompt));
}
