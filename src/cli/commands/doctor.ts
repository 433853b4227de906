import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/doctor.js');

export function registerDoctor(program: Command, cli: CliContext): void {
  program
    .command('doctor')
    .description("check what this machine gives ChatOS: versions, Electron, the data home, disk, the PATH servers get, each server's command, the headless port, a UI; exit 1 if a check fails")
    .action(lazyAction(cli, actions, (a) => a.doctor));
}
