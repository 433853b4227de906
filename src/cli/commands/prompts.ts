import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/prompts.js');

export function registerPrompts(program: Command, cli: CliContext): void {
  const prompts = program.command('prompts').description("the host's own prompts (a Chinese and an English text each), registered as chatos::NAME and chatos::NAME__en");

  prompts
    .command('list')
    .description("every prompt of the host, with its texts' ids and the apps granted them")
    .action(lazyAction(cli, actions, (a) => a.list));

  prompts
    .command('add')
    .description('add a prompt, or replace its texts with --replace')
    .argument('<name>', 'its name (letters, digits, ".", "_", "-")')
    .option('--title <title>', 'a title')
    .option('--zh <text>', 'the Chinese text')
    .option('--zh-file <file>', 'the Chinese text, from a file')
    .option('--en <text>', 'the English text')
    .option('--en-file <file>', 'the English text, from a file')
    .option('--replace', 'replace the prompt of that name')
    .action(lazyAction(cli, actions, (a) => a.add));

  prompts
    .command('remove')
    .description("remove a prompt, its texts' registrations and the grants on them")
    .argument('<name>', "the prompt's name")
    .action(lazyAction(cli, actions, (a) => a.remove));
}
