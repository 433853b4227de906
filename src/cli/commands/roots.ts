import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/roots.js');

export function registerRoots(program: Command, cli: CliContext): void {
  const roots = program.command('roots').description('plugin roots: the folders of plugin folders every process scans (remembered in the data home)');

  roots
    .command('list')
    .description("every plugin root: built-in, user, remembered, and this run's --plugins")
    .action(lazyAction(cli, actions, (a) => a.list));

  roots
    .command('add')
    .description('remember a folder of plugin folders, so every process (the app, chatos serve, every command) scans it; its plugins stay untrusted until you trust them')
    .argument('<dir>', 'a folder holding plugin folders')
    .action(lazyAction(cli, actions, (a) => a.add));

  roots
    .command('remove')
    .description('forget a remembered root: its plugins are no longer scanned, and their registrations are kept as missing (grants too) until they return or you prune')
    .argument('<dir>', 'a remembered root')
    .action(lazyAction(cli, actions, (a) => a.remove));
}
