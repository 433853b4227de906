import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import { DEFAULT_TEST_TIMEOUT_MS } from '../../core/facades/limits.js';
import { LOG_LEVELS } from '../../shared/logLevels.js';
import { collect } from '../pairOption.js';
import type { CliContext } from '../output.js';
import { registerMcpBuiltin } from './mcpBuiltin.js';
import { registerMcpSignIn } from './mcpSignIn.js';
import { registerMcpPromptCommands } from './mcpPromptCommands.js';
import { registerMcpResourceCommands } from './mcpResourceCommands.js';

const actions = () => import('../actions/mcp.js');

export function registerMcp(program: Command, cli: CliContext): void {
  const mcp = program

    .command('mcp')
    .description(
      'your MCP servers (mcp.yaml in the data home; comments and order are kept): list, add, remove, enable, disable, test, login, logout, import from Claude Desktop / VS Code / Cursor / Cline, templates, builtin (time, fetch, calculator); and what a server offers: resources, read, prompts, prompt',
    );

  registerMcpSignIn(mcp, cli);
  registerMcpBuiltin(mcp, cli);
  registerMcpResourceCommands(mcp, cli);
  registerMcpPromptCommands(mcp, cli);

  mcp
    .command('list')
    .description('the servers of mcp.yaml, how each starts, and its env and headers (stored values masked)')
    .action(lazyAction(cli, actions, (a) => a.list));

  mcp
    .command('add')
    .description('add a server to mcp.yaml: a program (stdio) with --command, or a streamable HTTP endpoint with --url; or one of chatos mcp templates with --template')
    .argument('<name>', 'its name (letters, digits, ".", "_", "-"); its registry id is chatos::NAME')
    .argument('[args...]', 'arguments after --, e.g. -- -y @modelcontextprotocol/server-everything')
    .option('--command <cmd>', 'the program to start (stdio)')
    .option('--arg <a>', 'an argument (repeatable; or give them after --)', collect, [])
    .option('--url <url>', 'a streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp')
    .option('--env <K=V>', 'an environment variable for the program (repeatable)', collect, [])
    .option('--env-var <K=VAR>', 'set K to the host variable VAR when it starts (repeatable)', collect, [])
    .option('--header <K=V>', 'an HTTP header (repeatable)', collect, [])
    .option('--header-var <K=VAR>', 'set header K to the host variable VAR (repeatable)', collect, [])
    .option('--cwd <dir>', 'the folder the program starts in (absolute)')
    .option('--node-runtime <choice>', "for --command node: system (node from PATH), bundled (the app's own Node) or auto (PATH's, else the app's; the default)")
    .option('--disabled', 'add it switched off')
    .option('--template <id>', 'add a template (see chatos mcp templates)')
    .option('--param <K=V>', "a template's value, e.g. folder=/home/me/project (repeatable)", collect, [])
    .action(lazyAction(cli, actions, (a) => a.add));

  mcp
    .command('remove')
    .description('remove a server from mcp.yaml, with its stored values (its grants stay, shown as missing, until you prune them)')
    .argument('<name>', "the server's name in mcp.yaml")
    .action(lazyAction(cli, actions, (a) => a.remove));

  for (const [verb, disabled] of [
    ['enable', false],
    ['disable', true],
  ] as const) {
    mcp
      .command(verb)
      .description(disabled ? 'switch a server off in mcp.yaml (disabled: true): it is not started or offered, in any process' : 'switch a server of mcp.yaml back on')
      .argument('<name>', "the server's name in mcp.yaml")
      .action(lazyAction(cli, actions, (a) => (disabled ? a.disable : a.enable)));
  }

  mcp
    .command('log-level')
    .description("the level a server sends its own log messages from (logging/setLevel), kept for it and sent at each start; default: the server's own")
    .argument('<server>', 'a registry id, e.g. chatos::everything')
    .argument('<level>', `${LOG_LEVELS.join(', ')} or default`)
    .action(lazyAction(cli, actions, (a) => a.logLevel));

  mcp
    .command('test')
    .description('start a server once, list its tools and end it; says exactly why it did not start (a mcp.yaml name, or any registry id such as aide::memory)')
    .argument('<name>', 'a server of mcp.yaml, or a registry id')
    .option('--timeout <seconds>', `how long to wait for it to start (default ${DEFAULT_TEST_TIMEOUT_MS / 1000})`)
    .action(lazyAction(cli, actions, (a) => a.test));

  mcp
    .command('import')
    .description(
      "add the servers of another client's config: Claude Desktop's claude_desktop_config.json, VS Code's .vscode/mcp.json, Cursor's or Cline's mcpServers; shows the plan, then imports on a terminal's yes or with --yes",
    )
    .argument('<file>', 'the config file (- for stdin)')
    .option('--yes', 'import without asking')
    .option('--on-conflict <choice>', 'a name mcp.yaml already has: skip (default), replace, or rename (to NAME-2…)', 'skip')
    .option('--no-store-secrets', 'write values that look like keys or tokens into mcp.yaml as they are, instead of the key store')
    .action(lazyAction(cli, actions, (a) => a.importConfig));

  mcp
    .command('templates')
    .description('servers to add in one step: the bundled filesystem and memory servers, and published ones started with npx or uvx')
    .action(lazyAction(cli, actions, (a) => a.templates));
}
