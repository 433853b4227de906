import { lazy, useRef, useState, type KeyboardEvent } from 'react';
import type { McpPrompt } from '../../../../../src/shared/mcpPrompts';

// The menu and the form (antd's list, modal and inputs) load only once the user types "/", so the chat's first screen does not pay for them.
const SlashPromptMenu = lazy(() => import('./SlashPromptMenu').then((module) => ({ default: module.SlashPromptMenu })));
const PromptArgumentsForm = lazy(() => import('./PromptArgumentsForm').then((module) => ({ default: module.PromptArgumentsForm })));

import type { SlashScope } from './slashScope';
import { PartSuspense } from '../../../shell/lazyPart';

export type { SlashScope } from './slashScope';

/** The word after a leading `/`, while the composer holds nothing else (no space, no new line): the menu is open then. */
function slashQuery(text: string): string | undefined {
  const match = /^\/([^\s]*)$/.exec(text);
  return match ? match[1]! : undefined;
}

/**
 * Slash commands in the composer (docs/using/slash-commands.md): `/` lists
 * the MCP prompts of the agent's servers, a pick opens its argument form,
 * and the host sends what the prompt gives into the conversation. The composer
 * shows `menu` above its box, passes its keys to `onKeyDown` first, and
 * renders `form`.
 */
export function useSlashCommands(scope: SlashScope | undefined, text: string, conversation: { ready: boolean; onSent(conversationId: string): void }) {
  const query = scope ? slashQuery(text) : undefined;
  const [picked, setPicked] = useState<McpPrompt | undefined>(undefined);
  const first = useRef<McpPrompt | undefined>(undefined);
  const menu =
    scope && query !== undefined ? (
      <PartSuspense fallback={null}>
        <SlashPromptMenu scope={scope} query={query} onPick={setPicked} first={first} />
      </PartSuspense>
    ) : null;
  /** Enter while the menu shows a match picks the first one (instead of sending "/…" as text); true when the key was used. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (query === undefined || event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing || !first.current) return false;
    event.preventDefault();
    setPicked(first.current);
    return true;
  };
  const form =
    scope && picked ? (
      <PartSuspense fallback={null}>
        <PromptArgumentsForm scope={scope} prompt={picked} ready={conversation.ready} onClose={() => setPicked(undefined)} onSent={conversation.onSent} />
      </PartSuspense>
    ) : null;
  return { menu, form, onKeyDown };
}
