import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/validate.js');

export function registerValidate(program: Command, cli: CliContext): void {
  program
    .command('validate')
    .description('validate one plugin folder; lists every problem with file and JSON path')
    .argument('<dir>', 'the plugin folder (the one holding plugin.json)')
    .action(lazyAction(cli, actions, (a) => a.validate));
}
