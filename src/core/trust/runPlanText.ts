import { diffArrays } from 'diff';
import type { RunEnv, RunPlan } from '../../shared/trust.js';
import { quotedWord, visibleInline } from '../../shared/visibleText.js';
import { nodeChoiceText } from '../runtime/nodeRuntime.js';

function envText(env: RunEnv): string {
  const set = env.set.map(({ name, value }) => `${quotedWord(name)}=${quotedWord(value)}`).join(' ');
  const inherited = env.inherited.length ? `from the host: ${env.inherited.join(', ')}` : '';
  return [set, inherited].filter(Boolean).join('; ') || '(empty)';
}

/**
 * A run plan as the lines the CLI prints (indented two spaces), and an
 * update's diff compares. What the plugin wrote (a program, an argument, a
 * variable, a file name) is a quotedWord: where one ends and what it holds
 * is never in doubt.
 */
export function runPlanLines(plan: RunPlan): string[] {
  const lines: string[] = [];
  for (const server of plan.servers) {
    lines.push(`  server ${server.serverName}: ${server.command ? server.command.map(quotedWord).join(' ') : visibleInline(server.url)}`);
    if (server.env) lines.push(`    environment: ${envText(server.env)}`);
    if (server.nodeRuntime) lines.push(`    node: ${nodeChoiceText(server.nodeRuntime)}`);
  }
  for (const page of plan.pages) lines.push(`  page ${page.appId}: ${quotedWord(page.entry)}${page.compact ? ` (compact: ${quotedWord(page.compact)})` : ''}`);
  if (plan.backend) {
    lines.push(`  backend: node ${[...(plan.backendNodeArgs ?? []), plan.backend].map(quotedWord).join(' ')}`);
    if (plan.backendEnv) lines.push(`    environment: ${envText(plan.backendEnv)}`);
  }
  if (!plan.servers.length && !plan.pages.length && !plan.backend) lines.push('  (nothing)');
  else if (plan.hostModules?.length) lines.push(`  from the host, without bundling: ${plan.hostModules.map((p) => `${p.name}@${p.version}`).join(', ')}`);
  for (const warning of plan.warnings) lines.push(`  WARNING: ${warning.message}`);
  return lines;
}

export interface PlanLine {
  /** `+` runs after the update only, `-` ran before only, ` ` both. */
  op: '+' | '-' | ' ';
  text: string;
}

/** What will run before and after, line by line (a line diff of runPlanLines). */
export function runPlanDiff(before: RunPlan, after: RunPlan): PlanLine[] {
  return diffArrays(runPlanLines(before), runPlanLines(after)).flatMap((part) => part.value.map((text) => ({ op: part.added ? '+' : part.removed ? '-' : ' ', text }) as PlanLine));
}
