import { useEffect, useMemo, useState } from 'react';
import type { McpPrompt } from '../../../../../src/shared/mcpPrompts';
import { api, errorLine } from '../../../api/client';

/** Whose prompts the composer lists: the conversation and its agent (the host checks what that agent may use). */
export interface SlashScope {
  agentId: string;
  conversationId: string;
}

/** The word after a leading `/`, while the composer holds nothing else (no space, no new line): the menu is open then. */
export function slashQuery(text: string): string | undefined {
  const match = /^\/([^\s]*)$/.exec(text);
  return match ? match[1]! : undefined;
}

/**
 * The prompts a `/` in the composer offers: listed from the host once each
 * time the menu opens (so a server's changed list shows), filtered by the
 * name typed after the slash.
 */
export function useSlashPrompts(scope: SlashScope | undefined, text: string) {
  const query = scope ? slashQuery(text) : undefined;
  const open = query !== undefined;
  const [listed, setListed] = useState<{ prompts: McpPrompt[]; error?: string } | undefined>(undefined);
  useEffect(() => {
    if (!open || !scope) {
      setListed(undefined);
      return;
    }
    let live = true;
    api.call('mcpPrompts.list', scope).then(
      (result) => live && setListed({ prompts: result.prompts }),
      (error: unknown) => live && setListed({ prompts: [], error: errorLine(error) }),
    );
    return () => {
      live = false;
    };
  }, [open, scope]);
  const matches = useMemo(() => {
    if (!listed || query === undefined) return [];
    const lower = query.toLowerCase();
    return listed.prompts.filter((p) => p.name.toLowerCase().startsWith(lower) || (p.title ?? '').toLowerCase().startsWith(lower));
  }, [listed, query]);
  return { open, query: query ?? '', loading: open && !listed, error: listed?.error, matches, total: listed?.prompts.length ?? 0 };
}
