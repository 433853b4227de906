import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import { DEFAULT_SERVE_PORT } from '../../shared/servePort.js';
import { answerLimitOption } from '../answerLimitOption.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/serve.js');

export function registerServe(program: Command, cli: CliContext): void {
  program
    .command('serve')
    .description("the headless host: serves the UI on 127.0.0.1 and prints a URL carrying the data home's token (kept across restarts)")
    .option('--port <n>', `port to listen on, 0 = any free port (default ${DEFAULT_SERVE_PORT})`)
    .option('--view-port <n>', 'port MCP App views run at, as http://<view>.localhost:<n> (default 0 = any free port)')
    .option('--no-watch', 'do not reload when mcp.yaml or plugin folders change')
    .option('--new-token', 'replace the stored token: URLs and open tabs with the old one stop working')
    .option('--print-url', 'print the URL of the server on --port (with the stored token) and exit; starts nothing')
    .option('--open <file.mcpb>', 'open an MCP bundle as the desktop does when one is double-clicked: the window shows its install preview')
    .addOption(answerLimitOption())
    .action(lazyAction(cli, actions, (a) => a.serve));
}
