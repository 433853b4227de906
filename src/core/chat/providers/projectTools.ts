import type { ApiKind } from '../../../shared/models.js';
import type { ToolSpec } from './modelRequest.js';

/** A tool the projection left out for one API, and why (none today). */
export interface ProjectionProblem {
  toolName: string;
  code: string;
  message: string;
}

export interface ProjectedTools {
  tools: ToolSpec[];
  problems: ProjectionProblem[];
}

/**
 * docs/rules/chat.md#tools-sent-to-a-model: the tools an API is sent, from
 * the tools an agent resolved. Pure and deterministic: the same input gives
 * the same output, in the same order, and nothing is changed in place.
 *
 * Today it passes every tool through as it is, schema untouched: if a
 * provider dislikes a schema, it rejects the request, and that rejection
 * (a `rejected` ProviderError naming the tool where it can) stops the
 * conversation with a problem. When a provider's limits are known, they are
 * applied here per `apiKind`, each dropped tool becoming a problem.
 */
export function projectTools(apiKind: ApiKind, tools: readonly ToolSpec[]): ProjectedTools {
  switch (apiKind) {
    case 'openai':
    case 'openai-responses':
    case 'anthropic':
      return { tools: [...tools], problems: [] };
  }
}
