import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';
import { SECTIONS } from '../registrySections.js';

const actions = () => import('../actions/registry.js');

export function registerRegistry(program: Command, cli: CliContext): void {
  const registry = program
    .command('registry')
    .description('what the registry holds (apps, servers, prompts, grants), or with --for what one app may see')
    .argument('[section]', `one of ${SECTIONS.join(', ')} (default: all)`)
    .option('--for <app>', 'only what this app may see: its own registrations plus its grants')
    .action(lazyAction(cli, actions, (a) => a.registry));

  registry
    .command('prune')
    .description('remove registrations whose plugin or origin is gone (marked missing), with their grants; lists them, and removes them with --yes')
    .option('--yes', 'remove them (without it, only list what would go)')
    .action(lazyAction(cli, actions, (a) => a.prune));

  registry
    .command('copies')
    .description('plugin servers and prompts copied into the host\'s own lists (syncAiContributes); "on" or "off" switches the copies for every process of the data home')
    .argument('[switch]', 'on or off (without it: show the switch and the copies)')
    .action(lazyAction(cli, actions, (a) => a.copies));

  program
    .command('grant')
    .description('grant an app access to a server or prompt (by registry id)')
    .argument('<app>', 'the app that gets access, e.g. aide')
    .argument('<id>', 'registry id, e.g. git_app::com.example.git.status')
    .action(lazyAction(cli, actions, (a) => a.grant));

  program
    .command('revoke')
    .description("revoke an app's access to a server or prompt")
    .argument('<app>', 'the app that loses access')
    .argument('<id>', 'registry id')
    .action(lazyAction(cli, actions, (a) => a.revoke));
}
