import { useEffect, useMemo, useState } from 'react';
import type { McpPrompt } from '../../../../../src/shared/mcpPrompts';
import { api, errorLine } from '../../../api/client';
import type { SlashScope } from './slashScope';

/**
 * The prompts a `/` in the composer offers: listed from the host each time
 * the menu opens (so a server's changed list shows), filtered by the
 * name typed after the slash.
 */
export function useSlashPrompts(scope: SlashScope, query: string) {
  const [listed, setListed] = useState<{ prompts: McpPrompt[]; error?: string } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    api.call('mcpPrompts.list', scope).then(
      (result) => live && setListed({ prompts: result.prompts }),
      (error: unknown) => live && setListed({ prompts: [], error: errorLine(error) }),
    );
    return () => {
      live = false;
    };
  }, [scope]);
  const matches = useMemo(() => {
    if (!listed) return [];
    const lower = query.toLowerCase();
    return listed.prompts.filter((p) => p.name.toLowerCase().startsWith(lower) || (p.title ?? '').toLowerCase().startsWith(lower));
  }, [listed, query]);
  return { query, loading: !listed, error: listed?.error, matches, total: listed?.prompts.length ?? 0 };
}
