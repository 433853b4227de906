import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/conversations.js');

export function registerConversations(program: Command, cli: CliContext): void {
  const conversations = program.command('conversations').description(`stored conversations (messages in <home>/chatos/conversations/<id>/)`);

  conversations
    .command('list')
    .description('every conversation, newest first')
    .option('--agent <id>', 'only this agent’s')
    .option('--all', 'also the runs of sub-agents')
    .action(lazyAction(cli, actions, (a) => a.list));

  conversations
    .command('show')
    .description('a conversation’s active branch, message by message')
    .argument('<id>', 'conversation id')
    .action(lazyAction(cli, actions, (a) => a.show));

  conversations
    .command('delete')
    .description('delete a conversation (and its sub-agent runs), releasing the server instances it holds')
    .argument('<id>', 'conversation id')
    .action(lazyAction(cli, actions, (a) => a.deleteConversation));

  conversations
    .command('export')
    .description('a conversation as Markdown or JSON, on stdout or into a file')
    .argument('<id>', 'conversation id')
    .option('--format <format>', 'md or json', 'md')
    .option('-o, --output <file>', 'write it to this file')
    .action(lazyAction(cli, actions, (a) => a.exportConversation));

  conversations
    .command('search')
    .description('find text in conversation titles and messages')
    .argument('<text>', 'what to look for (case does not matter)')
    .action(lazyAction(cli, actions, (a) => a.search));

  conversations
    .command('roots')
    .description("a conversation's workspace roots (the folders its MCP servers are told): show them, set its own, or --clear for its agent's")
    .argument('<id>', 'conversation id')
    .argument('[folders...]', 'its own folders from now on (a relative one is taken from the current folder)')
    .option('--clear', "no roots of its own: its agent's again")
    .action(lazyAction(cli, actions, (a) => a.roots));
}
