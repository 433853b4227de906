import type { ChatService } from '../chat/chatService.js';
import type { PageApp } from '../chat/pageChat.js';
import type { PageChatRequest } from '../../shared/pageChat.js';

export type { ChatEvent } from '../chat/chatPolicy.js';
export { attachmentTooLarge } from '../chat/attachments/attachmentFile.js';
export type { StartedTurn } from '../chat/chatService.js';
export type { TurnOutcome } from '../chat/chatTurn.js';

/** Conversations and their turns: the chat operations every face calls; a turn runs in the core whoever started it. */
export interface ChatFacade extends Pick<
  ChatService,
  | 'onEvent'
  | 'list'
  | 'get'
  | 'window'
  | 'create'
  | 'rename'
  | 'setBranch'
  | 'delete'
  | 'search'
  | 'export'
  | 'attach'
  | 'attachFile'
  | 'attachResource'
  | 'discardAttachment'
  | 'send'
  | 'sendPrompt'
  | 'postAppMessage'
  | 'setAppContext'
  | 'edit'
  | 'regenerate'
  | 'resume'
  | 'continue'
  | 'setModel'
  | 'stop'
  | 'cancelCall'
  | 'isRunning'
  | 'problems'
> {
  /** `host.chat.*` of a UI app's page: kept to that app's own agents and conversations. */
  page(app: PageApp, request: PageChatRequest): Promise<Record<string, unknown>>;
}
