import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { findAppRoot, DataHome, resolveDataHome, runDiagnostics, serverPathSource } from '../../core/facades/setup.js';
import type { DiagnosticCheck } from '../../shared/diagnostics.js';
import type { ServerDefinition, ServerProtocol } from '../../shared/mcp.js';
import { protocolsOf } from '../../shared/protocolWords.js';
import { globalOptions, withReadOnlyHost } from '../globalOptions.js';
import { printJson, type CliContext } from '../output.js';
import { DEFAULT_SERVE_PORT } from '../../shared/servePort.js';

const MARK: Record<DiagnosticCheck['status'], string> = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' };

function appVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(findAppRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export async function doctor(cli: CliContext, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const home = new DataHome(resolveDataHome(options.home));
  // The servers need a host; every other check runs even when it cannot start (an unreadable home is what doctor is for).
  let servers: readonly ServerDefinition[] | { error: string };
  let protocols: ReadonlyMap<string, ServerProtocol> = new Map();
  try {
    [servers, protocols] = await withReadOnlyHost(options, (host) => [host.mcp.definitions(), protocolsOf(host.mcp.servers.list())] as const);
  } catch (error) {
    servers = { error: (error as Error).message };
  }
  const report = await runDiagnostics({
    appVersion: appVersion(),
    home: home.root,
    mcpConfigFile: home.mcpConfig,
    pathSource: serverPathSource(),
    hostEnv: process.env,
    servers,
    protocols,
    headlessPort: DEFAULT_SERVE_PORT,
    now: Date.now(),
  });
  if (options.json) printJson(io, report);
  else {
    for (const check of report.checks) {
      io.out(`${MARK[check.status]} ${check.id}: ${check.summary}`);
      if (check.fix) io.out(`     fix: ${check.fix}`);
    }
    const count = (status: DiagnosticCheck['status']) => report.checks.filter((c) => c.status === status).length;
    io.out(`\n${count('ok')} ok, ${count('warn')} warning(s), ${count('fail')} failed`);
  }
  cli.exitCode = report.ok ? 0 : 1;
}
