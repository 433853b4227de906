import type { Attachment, ConversationMessage, SummaryMessage, ToolContentItem, UserMessage } from '../../shared/chat.js';
import { IMAGE_MIME_TYPES, type ChatMessage, type ContentPart, type ImageMimeType } from '../models/providers/modelRequest.js';
import { appContextModelText } from './appContext.js';
import { appMessageText } from './appMessages.js';
import { capResult, cutNote } from './resultCap.js';

/**
 * What the model is sent of a conversation's active branch: its messages in
 * vendor-neutral form, and the summary that stands for older turns. Pure,
 * but for `readImage`, which the caller gives.
 */

export interface HistoryOptions {
  /** The model accepts images: image results are sent as images (JPEG, PNG, GIF, WebP only), else as a note. */
  vision: boolean;
  /**
   * The model entry the request goes to. What a provider attached to an
   * answer for itself (reasoning to send back, thinking signatures, a call's
   * thought signature) goes back only to the entry that wrote that answer:
   * another model would reject a signature that is not its own.
   */
  modelId: string;
  /** The bytes (base64) of an artifact, by its path in the conversation's folder; undefined when it cannot be read. */
  readImage(artifact: string): string | undefined;
  /** The text of an attached document as it was kept (UTF-8), by its path in the conversation's folder; undefined when it cannot be read. */
  readText(artifact: string): string | undefined;
}

export interface History {
  messages: ChatMessage[];
  /** The latest summary on the branch: the messages it covers are left out, and its text goes with the system prompt. */
  summary?: SummaryMessage;
}

/** Where the latest summary on `path` is, and from which index messages are sent as they are. */
export function activeStart(path: readonly ConversationMessage[]): { summary?: SummaryMessage; start: number } {
  for (let i = path.length - 1; i >= 0; i--) {
    const message = path[i]!;
    if (message.role !== 'summary') continue;
    const through = path.findIndex((m) => m.id === message.throughId);
    return { summary: message, start: through === -1 ? i + 1 : through + 1 };
  }
  return { start: 0 };
}

export function historyOf(path: readonly ConversationMessage[], options: HistoryOptions): History {
  const { summary, start } = activeStart(path);
  const messages: ChatMessage[] = [];
  const active = path.slice(start);
  active.forEach((message, index) => {
    switch (message.role) {
      case 'user':
        messages.push({ role: 'user', content: userParts(message, options) });
        return;
      case 'assistant': {
        const own = message.modelId === options.modelId;
        const { reasoning } = message;
        // An answer with no text or calls still goes back to its own model when its content was kept whole (a paused server-tool turn).
        const keptWhole = own && reasoning?.replay?.some((item) => item.type === 'content');
        if (!message.text && !message.toolCalls.length && !keptWhole) return;
        messages.push({
          role: 'assistant',
          text: message.text,
          toolCalls: own ? message.toolCalls : message.toolCalls.map(({ extraContent: _extra, ...call }) => call),
          ...(own && reasoning ? { reasoning: { text: reasoning.text, replay: reasoning.replay ?? [], ...(reasoning.source ? { source: reasoning.source } : {}) } } : {}),
        });
        // Every call needs its result next, or the provider rejects the request: a call whose result was never
        // written (the process ended mid-call) gets one saying so. Results may come in any order after the calls.
        for (const call of message.toolCalls) {
          if (!laterResult(active, index, call.id)) {
            messages.push({
              role: 'tool',
              callId: call.id,
              name: call.name,
              content: [{ type: 'text', text: 'This call was interrupted (the host stopped) and its result is unknown.' }],
              isError: true,
            });
          }
        }
        return;
      }
      case 'tool': {
        // The model gets at most the result's cap; the conversation keeps (and shows) all of it.
        const { items, cut } = capResult(message.content, message.maxResultChars);
        const content = items.map((item) => partOf(item, options));
        if (cut) content.push({ type: 'text', text: cutNote(cut) });
        messages.push({ role: 'tool', callId: message.callId, name: message.name, content, isError: message.isError });
        return;
      }
      case 'summary':
        return;
    }
  });
  // Continue: the branch ends at an answer that was cut at the token limit; the model goes on from where it stopped.
  const last = active.at(-1);
  if (last?.role === 'assistant' && last.finish === 'length' && !last.toolCalls.length) messages.push({ role: 'user', content: [{ type: 'text', text: CONTINUE_TEXT }] });
  return { messages, ...(summary ? { summary } : {}) };
}

/** What the model is asked when the user continues an answer it cut at its token limit (sent, never stored). */
export const CONTINUE_TEXT = 'Your previous answer was cut off at the output token limit. Continue it exactly where it stopped, without repeating anything already written.';

/** A result written right after its call's message belongs to it; one further on (after another assistant message) does not. */
function laterResult(active: readonly ConversationMessage[], index: number, callId: string): boolean {
  for (let i = index + 1; i < active.length; i++) {
    const message = active[i]!;
    if (message.role === 'assistant' || message.role === 'user') return false;
    if (message.role === 'tool' && message.callId === callId) return true;
  }
  return false;
}

function partOf(item: ToolContentItem, options: HistoryOptions): ContentPart {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: item.text };
    case 'note':
    case 'reminder':
      return { type: 'text', text: item.text };
    case 'image': {
      if (!options.vision) return { type: 'text', text: `[an image (${item.mimeType}) was returned and saved as ${item.artifact}; it is not shown because this model does not accept images]` };
      if (!IMAGE_MIME_TYPES.includes(item.mimeType)) return { type: 'text', text: `[an image of type ${item.mimeType} was returned; only JPEG, PNG, GIF and WebP are shown to models]` };
      const data = options.readImage(item.artifact);
      if (data === undefined) return { type: 'text', text: `[an image was returned, but its file ${item.artifact} can no longer be read]` };
      return { type: 'image', mimeType: item.mimeType as ImageMimeType, data };
    }
  }
}

/**
 * A user message: the apps' context it carries first, each marked as data from its app; then its text, or the
 * app's message marked as the app's; then each file it carries: an image as an image (or a note for a model
 * without vision), a document as its text headed with its name.
 */
function userParts(message: UserMessage, options: HistoryOptions): ContentPart[] {
  const context: ContentPart[] = (message.appContext ?? []).map((c) => ({ type: 'text', text: appContextModelText(c) }));
  if (message.from) return [...context, { type: 'text', text: appMessageText({ ...message, from: message.from }) }];
  const parts: ContentPart[] = [...context, ...(message.text || !message.attachments?.length ? [{ type: 'text' as const, text: message.text }] : [])];
  for (const attachment of message.attachments ?? []) parts.push(attachmentPart(attachment, options));
  return parts;
}

function attachmentPart(attachment: Attachment, options: HistoryOptions): ContentPart {
  if (attachment.kind === 'image') {
    if (!options.vision) return { type: 'text', text: `[image ${attachment.name} attached; this model does not read images]` };
    const data = IMAGE_MIME_TYPES.includes(attachment.mimeType) ? options.readImage(attachment.artifact) : undefined;
    if (data === undefined) return { type: 'text', text: `[image ${attachment.name} was attached, but its file ${attachment.artifact} can no longer be read]` };
    return { type: 'image', mimeType: attachment.mimeType as ImageMimeType, data };
  }
  const text = options.readText(attachment.artifact);
  if (text === undefined) return { type: 'text', text: `[file ${attachment.name} was attached, but its text (${attachment.artifact}) can no longer be read]` };
  const cut =
    attachment.totalChars !== undefined
      ? `\n[${attachment.name} was cut: only its first ${attachment.chars} of ${attachment.totalChars} characters are here; the last ${attachment.totalChars - attachment.chars} were left out]`
      : '';
  // A server's resource says where it came from: the model may read it again (or more of it) with that server's tools.
  const what = attachment.resource ? `resource ${attachment.resource.uri} (from MCP server ${attachment.resource.serverId})` : `file: ${attachment.name}`;
  return { type: 'text', text: `--- Attached ${what} ---\n${text}${cut}\n--- End of ${attachment.name} ---` };
}
