import { useState, type KeyboardEvent } from 'react';
import type { McpPrompt } from '../../../../../src/shared/mcpPrompts';
import { PromptArgumentsForm } from './PromptArgumentsForm';
import { SlashPromptMenu } from './SlashPromptMenu';
import { useSlashPrompts, type SlashScope } from './useSlashPrompts';

export type { SlashScope } from './useSlashPrompts';

/**
 * Slash commands in the composer (docs/using/slash-commands.md): `/` lists
 * the MCP prompts of the agent's servers, a pick opens its argument form,
 * and what the prompt gives is sent as the user's message. The composer
 * shows `menu` above its box, passes its keys to `onKeyDown` first, and
 * renders `form`.
 */
export function useSlashCommands(scope: SlashScope | undefined, text: string, send: (text: string) => Promise<boolean>) {
  const state = useSlashPrompts(scope, text);
  const [picked, setPicked] = useState<McpPrompt | undefined>(undefined);
  const menu = <SlashPromptMenu state={state} onPick={setPicked} />;
  /** Enter while the menu shows a match picks the first one (instead of sending "/…" as text); true when the key was used. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!state.open || event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing || !state.matches.length) return false;
    event.preventDefault();
    setPicked(state.matches[0]);
    return true;
  };
  const form = scope && picked ? <PromptArgumentsForm scope={scope} prompt={picked} onClose={() => setPicked(undefined)} onSend={send} /> : null;
  return { menu, form, onKeyDown };
}
