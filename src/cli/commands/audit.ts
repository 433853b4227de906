import type { Command } from 'commander';
import { globalOptions, hostFor } from '../globalOptions.js';
import { printJson, UsageError, type CliContext } from '../output.js';

export function registerAudit(program: Command, cli: CliContext): void {
  const { io } = cli;
  program
    .command('audit')
    .description('recent gateway calls, newest first: who called which tool, the decision, the outcome')
    .option('--limit <n>', 'at most this many records', '50')
    .option('--tool <name>', 'only calls of this tool')
    .option('--app <app>', 'only calls made as this app')
    .action((opts: { limit: string; tool?: string; app?: string }, command: Command) => {
      const options = globalOptions(command);
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a positive whole number, not "${opts.limit}"`);
      // Reading the audit needs no DB and starts no server.
      const records = hostFor(options).audit.query({ limit, tool: opts.tool, appId: opts.app });
      if (options.json) printJson(io, { records });
      else if (!records.length) io.out('no calls recorded yet');
      else {
        for (const r of records) {
          io.out(`${r.time}  ${r.appId}${r.agentId ? `/${r.agentId}` : ''}  ${r.tool}  [${r.permission}, ${r.decision}]  ${r.outcome}  ${r.durationMs === null ? '?' : Math.round(r.durationMs)} ms${r.error ? `  ${r.error.split('\n')[0]}` : ''}`);
        }
      }
      cli.exitCode = 0;
    });
}
