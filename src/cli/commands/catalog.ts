import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import { collect } from '../pairOption.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/catalog.js');

/** `chatos catalog …`: the MCP server catalog of an MCP Registry (docs/rules/catalog.md). */
export function registerCatalog(program: Command, cli: CliContext): void {
  const catalog = program
    .command('catalog')
    .description('MCP servers of an MCP Registry (the official one unless the mcpRegistryUrl setting names another): search, show what one runs, add it to mcp.yaml');
  const registryOption = [
    '--registry <url>',
    "another MCP registry for this command, e.g. your company's (default: the mcpRegistryUrl setting, else https://registry.modelcontextprotocol.io)",
  ] as const;

  catalog
    .command('search', { isDefault: true })
    .description('search the registry by name (no words: its first page); lists each entry with what it would run')
    .argument('[words...]', 'part of the name, e.g. filesystem')
    .option('--cursor <cursor>', 'the next page: the cursor a search printed')
    .option('--limit <n>', 'entries per page (1-100, default 30)')
    .option(...registryOption)
    .action(lazyAction(cli, actions, (a) => a.search));

  catalog
    .command('show')
    .description('one entry: each way to run it (command and arguments, or URL), what is downloaded from where, and the values it asks for')
    .argument('<name>', "the registry's name, e.g. io.github.user/weather")
    .option(...registryOption)
    .action(lazyAction(cli, actions, (a) => a.show));

  catalog
    .command('add')
    .description(
      'add an entry to mcp.yaml as a server you could have typed (same checks, trust and grants); secret values go to the key store. An MCP bundle (mcpb) entry installs as a plugin as chatos install URL does, its download checked against the SHA-256 the entry names',
    )
    .argument('<name>', "the registry's name, e.g. io.github.user/weather")
    .option(...registryOption)
    .option('--as <server>', 'its name in mcp.yaml (default: the part after the "/")')
    .option('--option <n>', 'which way to run it (a number chatos catalog show prints; default: the first ChatOS can add)')
    .option('--set <NAME=VALUE>', "a value it asks for, or a bundle's setting (user_config) (repeatable)", collect, [])
    .option('--secret-stdin <NAME>', 'read the value of NAME from stdin (piped, or typed without echo): a key never goes on the command line')
    .option('--yes', 'a bundle: update an installed copy in place without asking')
    .option('--keep-secrets', 'a bundle: carry the stored secrets over to an update signed by another publisher (or no longer signed)')
    .option('--sign-in', 'a remote that asks for sign-in (OAuth): sign in now, as chatos mcp login does (the default on a terminal)')
    .option('--no-browser', 'signing in: only print the page to open (for a terminal on another machine)')
    .action(lazyAction(cli, actions, (a) => a.add));
}
