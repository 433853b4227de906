import type { Command } from 'commander';
import { AUDIT_DECISIONS, AUDIT_OUTCOMES } from '../../shared/auditValues.js';
import { lazyAction } from '../lazyAction.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/audit.js');

export function registerAudit(program: Command, cli: CliContext): void {
  program
    .command('audit')
    .description('recent gateway calls, refusals, lease releases and stopped backends, newest first: who called which tool, the decision, the outcome')
    .option('--limit <n>', 'at most this many records', '50')
    .option('--tool <name>', 'only calls of this tool')
    .option('--app <app>', 'only calls made as this app')
    .option('--decision <decision>', `only records with this decision: ${AUDIT_DECISIONS.join(', ')} (refused: the gateway refused the call)`)
    .option('--outcome <outcome>', `only records with this outcome: ${AUDIT_OUTCOMES.join(', ')}`)
    .action(lazyAction(cli, actions, (a) => a.audit));
}
