import type { GotPrompt } from '../../shared/mcpPrompts.js';
import { ChatError } from './chatError.js';
import { attachmentName, MAX_ATTACHMENTS_PER_MESSAGE, readAttachment, type ReadAttachment } from './attachments/attachmentFile.js';

type ReadImage = Extract<ReadAttachment, { kind: 'image' }>;

/** One turn a got prompt becomes: a user message (its text and images) or an assistant turn the prompt wrote. */
export type PromptTurn = { role: 'user'; text: string; images: ReadImage[] } | { role: 'assistant'; text: string };

/**
 * The conversation turns an MCP prompt's result becomes
 * (docs/using/slash-commands.md#what-is-sent): its messages in order, those
 * of one role in a row joined into one turn (the protocol gives each piece
 * its own message); a user's images as the images a message carries,
 * known by their bytes as an attached file is; an assistant turn as the
 * prompt wrote it. What cannot be sent (an image that is not one, an image
 * in an assistant turn, an audio piece, what the host cut) is said in a
 * note at the end of the last user turn, so the user and the model both
 * see it. The result is already within the host's cap on a prompt's size.
 */
export async function promptTurns(prompt: GotPrompt): Promise<PromptTurn[]> {
  const turns: PromptTurn[] = [];
  const notes = [...prompt.notes];
  let images = 0;
  for (const message of prompt.messages) {
    let turn = turns.at(-1);
    if (turn?.role !== message.role) {
      turn = message.role === 'user' ? { role: 'user', text: '', images: [] } : { role: 'assistant', text: '' };
      turns.push(turn);
    }
    for (const piece of message.content) {
      if (piece.type === 'text') {
        turn.text = turn.text ? `${turn.text}\n\n${piece.text}` : piece.text;
        continue;
      }
      images++;
      if (turn.role === 'assistant') {
        notes.push(`image ${images} (${piece.mimeType}) is in an assistant turn, and a model reads images only from the user: it is not sent`);
        continue;
      }
      if (turn.images.length >= MAX_ATTACHMENTS_PER_MESSAGE) {
        notes.push(`image ${images} is not sent: a message carries at most ${MAX_ATTACHMENTS_PER_MESSAGE} images`);
        continue;
      }
      const image = await imageOf(`${prompt.name}-image-${images}`, piece.data);
      if (image) turn.images.push(image);
      else notes.push(`image ${images} (said to be ${piece.mimeType}) is not a PNG, JPEG, GIF or WebP image: it is not sent`);
    }
  }
  const lastUser = turns.findLast((turn): turn is Extract<PromptTurn, { role: 'user' }> => turn.role === 'user');
  const what = `prompt "${prompt.name}" of server "${prompt.serverId}"`;
  if (!lastUser) throw new ChatError('PROMPT_EMPTY', `${what} gave no user message to send`, 'fill in its arguments differently, or pick another prompt');
  if (notes.length) lastUser.text = `${lastUser.text ? `${lastUser.text}\n\n` : ''}[Left out of ${what}: ${notes.join('; ')}]`;
  if (!lastUser.text && !lastUser.images.length) throw new ChatError('PROMPT_EMPTY', `${what} gave an empty message`, 'fill in its arguments differently, or pick another prompt');
  return turns;
}

/** An image by its bytes (whatever type the server named), or undefined when they are not one a model takes. */
async function imageOf(name: string, base64: string): Promise<ReadImage | undefined> {
  const bytes = Buffer.from(base64, 'base64');
  const read = await readAttachment(`${name}.png`, bytes).catch(() => undefined);
  return read?.kind === 'image' ? { ...read, name: attachmentName(`${name}.${read.mimeType.split('/')[1]}`) } : undefined;
}
