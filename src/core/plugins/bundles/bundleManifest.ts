import { VERSIONED_MANIFEST_SCHEMAS } from '@anthropic-ai/mcpb/schemas';
import type { McpbManifestAny } from '@anthropic-ai/mcpb';
import type { Problem } from '../../../shared/problems.js';
import { formatJsonPath } from '../../../shared/problemText.js';

/**
 * Reads an MCP Bundle's `manifest.json` with the schemas of `@anthropic-ai/mcpb`
 * itself (strict: an unknown field is refused, so a field this host would not
 * honour is never silently dropped). Every refusal names the manifest field.
 */

export type BundleManifest = McpbManifestAny;

const SUPPORTED = new Map(Object.entries(VERSIONED_MANIFEST_SCHEMAS));

interface ZodLikeIssue {
  code: string;
  path: (string | number)[];
  message: string;
  keys?: string[];
}

function problem(file: string, path: string, message: string, hint?: string): Problem {
  return { severity: 'error', code: 'BUNDLE_MANIFEST_INVALID', file, path, message, ...(hint ? { hint } : {}) };
}

/** The manifest's problems, or the manifest when it has none. */
export function parseBundleManifest(text: string, file: string): { manifest: BundleManifest } | { problems: Problem[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { problems: [problem(file, '', `manifest.json is not JSON: ${(error as Error).message}`)] };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { problems: [problem(file, '', 'manifest.json must hold an object')] };
  const record = data as Record<string, unknown>;
  const field = Object.hasOwn(record, 'manifest_version') ? 'manifest_version' : Object.hasOwn(record, 'dxt_version') ? 'dxt_version' : undefined;
  const versions = [...SUPPORTED.keys()].join(', ');
  if (!field) return { problems: [problem(file, 'manifest_version', 'has no manifest_version', `set "manifest_version" to one of ${versions}`)] };
  const version = record[field];
  const schema = typeof version === 'string' ? SUPPORTED.get(version) : undefined;
  if (!schema) return { problems: [problem(file, field, `${field} ${JSON.stringify(version)} is not one this host reads (${versions})`, `rebuild the bundle with a current "mcpb pack"`)] };
  const parsed = schema.safeParse(data);
  if (parsed.success) return { manifest: parsed.data as BundleManifest };
  const problems = (parsed.error.issues as ZodLikeIssue[]).flatMap((issue) =>
    issue.code === 'unrecognized_keys' && issue.keys
      ? issue.keys.map((key) =>
          problem(file, formatJsonPath([...issue.path, key]), `unknown field "${key}" (manifest ${version})`, 'remove it, or raise manifest_version to the version that defines it'),
        )
      : [problem(file, formatJsonPath(issue.path), issue.message)],
  );
  return { problems };
}
