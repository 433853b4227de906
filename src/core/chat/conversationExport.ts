import type { Attachment, ConversationDetail, ConversationMessage, ExportFormat } from '../../shared/chat.js';
import { sizeText } from '../net/boundedBody.js';

/** The bytes of a file in the conversation's folder, by its path there; undefined when it cannot be read. */
export type ReadArtifact = (artifact: string) => Buffer | undefined;

/**
 * A conversation's active branch as a file a person keeps: Markdown to read,
 * JSON to process. Made only of what the conversation holds (never a key:
 * none is ever stored in it). The files attached to messages go with it
 * (docs/using/chat.md#attachments): an image as data, a document as the text
 * the model was given. Pure, but for `read`.
 */
export function exportConversation(detail: ConversationDetail, format: ExportFormat, read: ReadArtifact): { filename: string; mimeType: string; text: string } {
  const base =
    (detail.conversation.title || detail.conversation.id)
      .replace(/[^\p{L}\p{N}_-]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'conversation';
  if (format === 'json') {
    const { conversation, messages, siblings, children } = detail;
    const attachments = attachmentFiles(messages, read);
    return {
      filename: `${base}.json`,
      mimeType: 'application/json',
      text: `${JSON.stringify({ format: 'chatos-conversation', version: 1, conversation, messages, siblings, children, ...(Object.keys(attachments).length ? { attachments } : {}) }, null, 2)}\n`,
    };
  }
  return { filename: `${base}.md`, mimeType: 'text/markdown', text: markdownOf(detail, read) };
}

/** Each attachment's content by its path: an image as base64, a document's text as it is and its original as base64 (null when its file is gone). */
function attachmentFiles(messages: readonly ConversationMessage[], read: ReadArtifact): Record<string, { encoding: 'base64' | 'utf8'; data: string } | null> {
  const files = new Map<string, { encoding: 'base64' | 'utf8'; data: string } | null>();
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const attachment of message.attachments ?? []) {
      const bytes = read(attachment.artifact);
      const encoding = attachment.kind === 'image' ? 'base64' : 'utf8';
      files.set(attachment.artifact, bytes ? { encoding, data: bytes.toString(encoding) } : null);
      if (attachment.kind === 'document' && attachment.original) {
        const original = read(attachment.original);
        files.set(attachment.original, original ? { encoding: 'base64', data: original.toString('base64') } : null);
      }
    }
  }
  return Object.fromEntries(files);
}

/** An attachment in Markdown: an image inline (as a data url), a document's text fenced under its name. */
function attachmentSection(attachment: Attachment, read: ReadArtifact): string[] {
  const bytes = read(attachment.artifact);
  const head = `**Attached:** ${attachment.name} (${attachment.mimeType}, ${sizeText(attachment.byteLength)})`;
  if (!bytes) return ['', head, '', `_Its file ${attachment.artifact} can no longer be read._`];
  if (attachment.kind === 'image') return ['', head, '', `![${attachment.name.replace(/[[\]]/g, '')}](data:${attachment.mimeType};base64,${bytes.toString('base64')})`];
  const cut = attachment.totalChars !== undefined ? ['', `_Cut to its first ${attachment.chars} of ${attachment.totalChars} characters._`] : [];
  return ['', head, '', fence(bytes.toString('utf8')), ...cut];
}

const fence = (text: string) => {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}\n${text}\n${ticks}`;
};

function markdownOf(detail: ConversationDetail, read: ReadArtifact): string {
  const { conversation } = detail;
  const lines = [`# ${conversation.title || 'Conversation'}`, '', `- id: ${conversation.id}`, `- agent: ${conversation.agentId}`, `- started: ${new Date(conversation.createdAt).toISOString()}`];
  const { totals } = conversation;
  lines.push(`- answers: ${totals.answers}, tokens in/out: ${totals.inputTokens}/${totals.outputTokens}${totals.cost ? `, cost: $${totals.cost.toFixed(4)}` : ''}`, '');
  for (const message of detail.messages) lines.push(...section(message, read), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function section(message: ConversationMessage, read: ReadArtifact): string[] {
  switch (message.role) {
    case 'user':
      return [
        message.prompt ? `## User (from prompt /${message.prompt.name} of ${message.prompt.serverId})` : '## User',
        '',
        // What apps told the model with the message, as it was sent: before the message's own text.
        ...(message.appContext ?? []).flatMap((c) => [`<details><summary>Context from the app ${c.from.name} (${c.from.kind} ${c.from.id})</summary>`, '', fence(c.text), '', '</details>', '']),
        message.text,
        ...(message.attachments ?? []).flatMap((attachment) => attachmentSection(attachment, read)),
      ];
    case 'assistant': {
      // A turn an MCP prompt wrote names the prompt: no model wrote it.
      const by = message.prompt ? `from prompt /${message.prompt.name} of ${message.prompt.serverId}` : `${message.agentId}, ${message.modelId}`;
      const out = [`## Assistant (${by})`, ''];
      if (message.reasoning?.text) {
        const seconds = message.reasoning.durationMs !== undefined ? ` (${Math.max(1, Math.round(message.reasoning.durationMs / 1000))} s)` : '';
        out.push(`<details><summary>Thinking${seconds}</summary>`, '', fence(message.reasoning.text), '', '</details>', '');
      }
      if (message.text) out.push(message.text);
      if (message.refusal) out.push('', `_Refused: ${message.refusal}_`);
      if (message.finish === 'length') out.push('', "_Cut at the model's token limit._");
      for (const notice of message.notices ?? []) out.push('', `_Note: ${notice}_`);
      for (const call of message.toolCalls) out.push('', `**Tool call** \`${call.name}\``, '', fence(call.argumentsText));
      if (message.status === 'stopped') out.push('', `_Stopped: ${message.stop?.message ?? 'stopped'}_`);
      const s = message.stats;
      const numbers = [
        s.ttftMs !== undefined ? `first token ${Math.round(s.ttftMs)} ms` : '',
        s.tokensPerSecond !== undefined ? `${s.tokensPerSecond} tokens/s` : '',
        s.inputTokens !== undefined ? `${s.inputTokens} in / ${s.outputTokens} out` : '',
        s.cost !== undefined ? `$${s.cost.toFixed(4)}` : '',
      ].filter(Boolean);
      if (numbers.length) out.push('', `<sub>${numbers.join(' · ')}</sub>`);
      return out;
    }
    case 'tool': {
      // The lease reminder was for the model; an export is for people.
      const body = message.content.flatMap((item) => (item.type === 'reminder' ? [] : [item.type === 'image' ? `![${item.mimeType}](${item.artifact})` : item.text])).join('\n');
      return [`### Result of \`${message.name}\` (${message.status}, ${message.durationMs} ms)`, '', message.content.some((i) => i.type === 'image') ? body : fence(body)];
    }
    case 'summary':
      return ['---', '', `_Older turns (${message.summarized} messages) were summarized here to fit the context window:_`, '', message.text, '', '---'];
  }
}
