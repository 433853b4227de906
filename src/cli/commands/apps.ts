import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/apps.js');

export function registerApps(program: Command, cli: CliContext): void {
  program
    .command('apps')
    .description('scan every plugin root; each app with its derived names, url, flags, exposure, trust and problems')
    .action(lazyAction(cli, actions, (a) => a.apps));
}
