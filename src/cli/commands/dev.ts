import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/dev.js');

export function registerDev(program: Command, cli: CliContext): void {
  program
    .command('dev')
    .description('link a plugin folder in place for development: trusted once (after showing what it runs), re-pinned and reloaded on every edit; "chatos dev list" shows the links')
    .argument('[dir]', 'the plugin folder to link (the one with plugin.json), or "list"')
    .option('--unlink <dirOrId>', 'unlink a folder (by path or plugin id): it stops running, its trust and registrations go; the folder stays')
    .action(lazyAction(cli, actions, (a) => a.dev));
}
