import type { GotPrompt } from '../../../../../src/shared/mcpPrompts';

/**
 * The text a got prompt is sent as: its messages in order, one paragraph
 * each, an assistant turn marked as such; images cannot go through the
 * composer's send and are counted so the form can say so.
 */
export function promptText(prompt: GotPrompt, assistantLabel: string): { text: string; imagesLeftOut: number } {
  let imagesLeftOut = 0;
  const parts = prompt.messages.map((message) => {
    const text = message.content
      .map((piece) => {
        if (piece.type === 'text') return piece.text;
        imagesLeftOut++;
        return '';
      })
      .filter(Boolean)
      .join('\n\n');
    return message.role === 'assistant' && text ? `${assistantLabel}\n${text}` : text;
  });
  return { text: parts.filter(Boolean).join('\n\n'), imagesLeftOut };
}
