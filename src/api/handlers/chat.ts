import * as path from 'node:path';
import { attachmentTooLarge, type ChatEvent } from '../../core/facades/chat.js';
import { MAX_ATTACHMENT_BYTES } from '../../core/facades/limits.js';
import type { Host } from '../../core/host.js';
import { DRAFT_CONVERSATION_ID, type ConversationDetail, type UserMessage } from '../../shared/chat.js';
import type { ConversationView, HostEventMessage } from '../../shared/hostApi.js';
import type { FaceUrls } from '../types.js';
import { StagedUploads } from './stagedUploads.js';
import type { HandlerContext, Handlers } from './types.js';

type ChatMethods =
  | 'conversations.list'
  | 'conversations.get'
  | 'conversations.create'
  | 'conversations.rename'
  | 'conversations.delete'
  | 'conversations.setBranch'
  | 'conversations.search'
  | 'conversations.export'
  | 'chat.send'
  | 'chat.postAppMessage'
  | 'chat.setAppContext'
  | 'chat.uploadPart'
  | 'chat.attach'
  | 'chat.attachResource'
  | 'chat.detach'
  | 'chat.stop'
  | 'chat.cancelCall'
  | 'chat.resume'
  | 'chat.continue'
  | 'chat.setModel'
  | 'chat.regenerate'
  | 'chat.edit'
  | 'alwaysAllow.list'
  | 'alwaysAllow.revoke';

/**
 * Conversations and turns for the faces. Turns start and return at once: the
 * turn runs in the core and reports through chat.* events, so a page that
 * closes (or a socket that drops) leaves it running.
 */
export function chatHandlers({ host, urls }: HandlerContext): Handlers<ChatMethods> {
  const { chat } = host;
  const uploads = new StagedUploads({ maxFileBytes: MAX_ATTACHMENT_BYTES, tooLarge: (_declared, name) => attachmentTooLarge(name ?? 'the file') });
  /** Each saved image of the conversation's tool results, with the url this face serves it at. */
  const viewOf = (detail: ConversationDetail): ConversationView => {
    const artifactUrls: Record<string, string> = Object.create(null) as Record<string, string>;
    const folder = path.join(host.setup.home.conversationsDir, detail.conversation.id);
    for (const message of detail.messages) {
      const images = message.role === 'tool' ? message.content.flatMap((item) => (item.type === 'image' ? [item.artifact] : [])) : message.role === 'user' ? imagesAttached(message) : [];
      for (const artifact of images) {
        try {
          artifactUrls[artifact] = urls.artifactUrl(path.join(folder, artifact));
        } catch {
          // A path outside the conversation's artifacts folder has no url: the face shows the image as missing.
        }
      }
    }
    return { ...detail, artifactUrls: { ...artifactUrls } };
  };
  return {
    'conversations.list': ({ agentId, includeChildren }) => ({ conversations: chat.list({ includeChildren, ...(agentId ? { agentId } : {}) }) }),
    'conversations.get': ({ id, limit, ...window }) => viewOf(limit === undefined ? chat.get(id) : chat.window(id, { limit, ...window })),
    'conversations.create': ({ agentId, title }) => ({ conversation: chat.create(agentId, title) }),
    'conversations.rename': ({ id, title }) => ({ conversation: chat.rename(id, title) }),
    'conversations.delete': async ({ id }) => {
      const result = await chat.delete(id);
      await host.save();
      return result;
    },
    'conversations.setBranch': ({ id, messageId }) => viewOf(chat.setBranch(id, messageId)),
    'conversations.search': ({ text, limit }) => ({ hits: chat.search(text, limit) }),
    'conversations.export': ({ id, format }) => chat.export(id, format),
    'chat.send': ({ conversationId, agentId, text, attachments, modelId }) => {
      const started = chat.send({ text, ...(conversationId ? { conversationId } : { agentId: agentId! }), ...(attachments ? { attachments } : {}), ...(modelId ? { modelId } : {}) });
      return { conversationId: started.conversationId, userMessageId: started.userMessageId! };
    },
    'chat.postAppMessage': ({ conversationId, source, text, state }) => {
      const started = chat.postAppMessage({ conversationId, source, text, ...(state !== undefined ? { state } : {}) });
      return { conversationId: started.conversationId, messageId: started.userMessageId! };
    },
    'chat.setAppContext': ({ conversationId, source, content, structuredContent }) =>
      chat.setAppContext({ conversationId, source, ...(content ? { content } : {}), ...(structuredContent !== undefined ? { structuredContent } : {}) }),
    'chat.uploadPart': ({ uploadId, offset, data, name, size }) => ({ received: uploads.append(uploadId, offset, data, size, name) }),
    'chat.attach': async ({ uploadId, name }) => ({ attachment: await chat.attach(name, uploads.take(uploadId)) }),
    'chat.attachResource': async ({ agentId, conversationId, serverId, uri }) => {
      // A chat not started yet reads on an instance of its own, released when idle like any other.
      const { caller } = host.tools.callers.agent(agentId, 'main', conversationId ?? DRAFT_CONVERSATION_ID);
      return { attachment: await chat.attachResource(await host.tools.resources.read(caller, serverId, uri)) };
    },
    'chat.detach': ({ id }) => ({ discarded: chat.discardAttachment(id) }),
    'chat.stop': ({ conversationId }) => ({ stopped: chat.stop(conversationId) }),
    'chat.cancelCall': ({ conversationId, callId }) => ({ cancelled: chat.cancelCall(conversationId, callId) }),
    'chat.resume': ({ conversationId, summarize }) => ({ conversationId: chat.resume(conversationId, { summarize: summarize === true }).conversationId }),
    'chat.continue': ({ conversationId }) => ({ conversationId: chat.continue(conversationId).conversationId }),
    'chat.setModel': ({ conversationId, modelId }) => ({ conversation: chat.setModel(conversationId, modelId) }),
    'chat.regenerate': ({ conversationId, messageId }) => ({ conversationId: chat.regenerate({ conversationId, ...(messageId ? { messageId } : {}) }).conversationId }),
    'chat.edit': ({ conversationId, messageId, text }) => {
      const started = chat.edit({ conversationId, messageId, text });
      return { conversationId: started.conversationId, userMessageId: started.userMessageId! };
    },
    'alwaysAllow.list': ({ agentId }) => ({ entries: host.agents.alwaysAllow.list(agentId) }),
    'alwaysAllow.revoke': async ({ agentId, toolName }) => {
      const revoked = host.agents.alwaysAllow.revoke(agentId, toolName);
      await host.save();
      return { revoked };
    },
  };
}

/** The files of a user message a face serves: its images, and its documents' originals (to open or save). */
const imagesAttached = (message: UserMessage) => (message.attachments ?? []).flatMap((a) => (a.kind === 'image' ? [a.artifact] : a.original ? [a.original] : []));

/** A core chat event as the contract's event; a saved image's file becomes the face's url for it. */
export function chatEventMessage(event: ChatEvent, urls: FaceUrls): HostEventMessage {
  switch (event.type) {
    case 'delta':
      return { type: 'chat.delta', conversationId: event.conversationId, messageId: event.messageId, text: event.text };
    case 'reasoning':
      return { type: 'chat.reasoning', conversationId: event.conversationId, messageId: event.messageId, text: event.text, ...(event.fromAnswer ? { fromAnswer: true } : {}) };
    case 'message': {
      const artifactUrls = event.artifacts?.flatMap((a) => {
        try {
          return [[a.artifact, urls.artifactUrl(a.file)] as const];
        } catch {
          return [];
        }
      });
      return { type: 'chat.message', conversationId: event.conversationId, message: event.message, ...(artifactUrls?.length ? { artifactUrls: Object.fromEntries(artifactUrls) } : {}) };
    }
    case 'toolCall': {
      const { artifacts, ...call } = event.call;
      return { type: 'chat.toolCall', ...call, ...(artifacts ? { artifacts: artifacts.map((a) => ({ url: urls.artifactUrl(a.file), mimeType: a.mimeType })) } : {}) };
    }
    case 'status':
      return { type: 'chat.status', ...event.status };
    case 'conversations':
      return { type: 'conversations.changed' };
  }
}

/** Chat events for the UI; a turn that stops or ends changes the problems (a stop by an error is one until resumed). */
export function wireChatEvents(host: Host, urls: FaceUrls, emit: (event: HostEventMessage) => void, problemsChanged: () => void): () => void {
  return host.chat.onEvent((event) => {
    emit(chatEventMessage(event, urls));
    if (event.type === 'status' && event.status.status !== 'running') problemsChanged();
  });
}
