import type { Command } from 'commander';
import { AuditDecisionSchema, AuditOutcomeSchema, type AuditDecision, type AuditOutcome, type AuditRecord } from '../../shared/audit.js';
import { globalOptions, hostFor } from '../globalOptions.js';
import { printJson, UsageError, type CliContext } from '../output.js';

/** A value of one of the audit's enums, or bad usage naming the ones there are. */
function enumOption<T extends string>(flag: string, value: string | undefined, options: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((options as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${options.join(', ')}, not "${value}"`);
}

/** One record as a line: a call, a refusal (with its code, and how many it stands for), a release or a stopped backend (with why). */
function auditText(r: AuditRecord): string {
  const who = `${r.appId}${r.agentId ? `/${r.agentId}` : ''}`;
  const what = r.tool ?? (r.pluginId && r.serverId === null ? `(backend of ${r.pluginId})` : `(lease of ${r.serverId})`);
  const outcome = `${r.outcome}${r.reason ? ` (${r.reason})` : ''}${r.count ? ` ×${r.count}` : ''}`;
  const duration = r.durationMs === null ? '?' : Math.round(r.durationMs);
  return `${r.time}  ${who}  ${what}  [${r.permission ?? '-'}, ${r.decision}]  ${outcome}  ${duration} ms${r.error ? `  ${r.error.split('\n')[0]}` : ''}`;
}

export async function audit(cli: CliContext, opts: { limit: string; tool?: string; app?: string; decision?: string; outcome?: string }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const limit = Number(opts.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a positive whole number, not "${opts.limit}"`);
  const decision = enumOption<AuditDecision>('--decision', opts.decision, AuditDecisionSchema.options);
  const outcome = enumOption<AuditOutcome>('--outcome', opts.outcome, AuditOutcomeSchema.options);
  // Reading the audit needs no DB and starts no server.
  const records = hostFor(options).audit.query({ limit, tool: opts.tool, appId: opts.app, decision, outcome });
  if (options.json) printJson(io, { records });
  else if (!records.length) io.out('no calls recorded yet');
  else for (const record of records) io.out(auditText(record));
  cli.exitCode = 0;
}
