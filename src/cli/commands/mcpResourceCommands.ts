import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';
import { collect } from '../pairOption.js';
import { addCallerOptions } from './tools.js';

const actions = () => import('../actions/mcpResourceCommands.js');

export function registerMcpResourceCommands(mcp: Command, cli: CliContext): void {
  addCallerOptions(
    mcp
      .command('resources')
      .description("a server's resources (uri, name, mimeType, size) and resource templates, as the caller may see them")
      .argument('<server>', 'a registry id, e.g. chatos::everything'),
  ).action(lazyAction(cli, actions, (a) => a.resources));

  addCallerOptions(
    mcp
      .command('read')
      .description('one resource of a server: text is printed; binary content is written to --out FILE, never to the terminal')
      .argument('<server>', 'a registry id, e.g. chatos::everything')
      .argument('<uri>', 'the resource, as chatos mcp resources lists it, or a template with --fill for its {…} parts'),
  )
    .option('--out <file>', 'write the contents to this new file (binary content needs it); more items go to FILE-2.ext…')
    .option('--fill <K=V>', 'a value for one {K} part of a template uri (repeatable)', collect, [])
    .action(lazyAction(cli, actions, (a) => a.read));
}
