import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import { collect } from '../pairOption.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/trust.js');

export function registerTrust(program: Command, cli: CliContext): void {
  program
    .command('trust')
    .description("trust a plugin's current content, after showing exactly what it will run")
    .argument('<plugin>', 'plugin id')
    .action(lazyAction(cli, actions, (a) => a.trust));

  program
    .command('untrust')
    .description('take back trust: nothing of the plugin runs any more')
    .argument('<plugin>', 'plugin id')
    .action(lazyAction(cli, actions, (a) => a.untrust));

  program
    .command('install')
    .description(
      'copy a plugin (folder or .zip) or an MCP Bundle (.mcpb, shown first: who signed it, what it runs) into the user plugin folder; it stays untrusted until you trust it. Over an installed copy of the same id it offers an update in place (grants kept, trust needed again)',
    )
    .argument('<source>', "plugin folder, .zip file, MCP Bundle (.mcpb) file, or a bundle's http(s) address")
    .option('--yes', 'update an installed copy in place without asking')
    .option('--config <key=value>', "a bundle's setting (user_config); repeat for more", collect, [])
    .option('--secret-stdin <key>', "read a bundle's sensitive setting from stdin (it goes to the key store)")
    .option('--allow-http', 'download a bundle from a plain http:// address (anyone on the network path could change it)')
    .option('--keep-secrets', "carry a bundle's stored secrets over to an update signed by another publisher (or no longer signed), or to an unsigned update of the same unsigned bundle")
    .action(lazyAction(cli, actions, (a) => a.install));

  program
    .command('uninstall')
    .description('remove a plugin from the user plugin folder, with its registrations and grants; its data folder stays unless --purge')
    .argument('<plugin>', 'plugin id')
    .option('--purge', 'also delete its data and state folders')
    .option('--yes', 'uninstall without asking, even when other apps lose grants on it')
    .action(lazyAction(cli, actions, (a) => a.uninstall));
}
