import type { z } from 'zod';
import { ownValue, valueAtPath } from '../../shared/ownKeys.js';
import type { Problem } from '../../shared/problems.js';
import { formatJsonPath } from '../../shared/problemText.js';

/** Hints by the last key of the JSON path: how a plugin author fixes that field. */
const FIELD_HINTS: Record<string, string> = {
  manifestVersion: 'set "manifestVersion": 1',
  id: 'use letters, digits, ".", "_" or "-", starting with a letter or digit, e.g. "com.example.tools"',
  providerAppId: 'use the id of the app that owns these capabilities, e.g. "git_app"',
  name: 'give it a display name, e.g. "name": "My App"',
  version: 'set a version string, e.g. "version": "1.0.0"',
  apps: 'list at least one app: "apps": [{ "id": "main", "name": "Main", "entry": "index.mjs" }]',
  entry: 'use a path inside the plugin folder, e.g. "app/index.mjs", or { "type": "module", "path": "app/index.mjs" }',
  compact: 'use a path inside the plugin folder, e.g. "app/compact.mjs"',
  path: 'use a path inside the plugin folder, e.g. "prompts/zh.md"',
  type: 'set "type": "module"',
  mcpServers: 'use true (all, or the default list), false (none) or a list of server names',
  prompts: 'use true (all, or the default list), false (none) or a list of prompt names',
  mcpPrompt: 'use a path to the zh prompt file, or { "zh": "prompt.zh.md", "en": "prompt.en.md" }',
  args: 'use a list of strings, e.g. ["--port", "0"]',
  env: 'use an object of string values, e.g. { "LOG_LEVEL": "debug" }',
  allowMain: 'use true or false',
  allowSub: 'use true or false',
  enabled: 'use true or false',
};

function describeReceived(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

/**
 * zod reports a failed union as one issue holding every branch's issues.
 * The useful branch is the one whose type matched (an object given where
 * "string or object" is allowed): report that branch's issues instead.
 */
function expandUnion(issue: z.core.$ZodIssueInvalidUnion): z.core.$ZodIssue[] | undefined {
  const typeMatched = issue.errors.filter((branch) => !(branch.length === 1 && branch[0]?.code === 'invalid_type' && branch[0].path.length === 0));
  if (typeMatched.length !== 1) return undefined;
  return typeMatched[0]!.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
}

function messageFor(issue: z.core.$ZodIssue, received: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return received === undefined ? 'is required' : `must be ${issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}, not ${describeReceived(received)}`;
    case 'invalid_value': {
      const allowed = issue.values.map((v) => JSON.stringify(v)).join(' or ');
      return received === undefined ? `is required: it must be ${allowed}` : `must be ${allowed}, not ${describeReceived(received)}`;
    }
    case 'too_small':
      return issue.origin === 'array' ? `must have at least ${issue.minimum} item(s)` : issue.message.startsWith('Too small') ? 'must not be empty' : issue.message;
    case 'invalid_union':
      if (received === undefined) return 'is required';
      return `${issue.message === 'Invalid input' ? 'has the wrong shape' : issue.message} (got ${describeReceived(received)})`;
    default:
      return issue.message;
  }
}

export function zodIssuesToProblems(issues: readonly z.core.$ZodIssue[], input: unknown, file: string): Problem[] {
  const problems: Problem[] = [];
  const visit = (issue: z.core.$ZodIssue) => {
    if (issue.code === 'invalid_union') {
      const expanded = expandUnion(issue);
      if (expanded) return expanded.forEach(visit);
    }
    const received = valueAtPath(input, issue.path);
    const lastKey = [...issue.path].reverse().find((k) => typeof k === 'string') as string | undefined;
    const params = (issue as { params?: { hint?: string } }).params;
    problems.push({
      severity: 'error',
      code: issue.path.at(-1) === 'manifestVersion' ? 'MANIFEST_VERSION_UNSUPPORTED' : `SCHEMA_${issue.code.toUpperCase()}`,
      file,
      path: formatJsonPath(issue.path),
      message: messageFor(issue, received),
      // The last key may be the author's own (an env or callMeta key): a hint is looked up as an own entry only.
      hint: params?.hint ?? (lastKey ? ownValue(FIELD_HINTS, lastKey) : undefined),
    });
  };
  issues.forEach(visit);
  return problems;
}
