import type { ChatStatusEvent, ConversationMessage, ToolCallEvent } from '../../shared/chat.js';
import { DEFAULT_MAX_ANSWER_CHARS } from '../models/providers/modelClient.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retryPolicy.js';

/** How far a turn may go; every field has a default (HostOptions.chat overrides them). */
export interface ChatPolicy {
  /** Model requests per turn: a model still asking for tools after this many stops, saying so. */
  maxRounds: number;
  /** How deep sub-agents may call sub-agents: at this depth none is offered. */
  maxDepth: number;
  retry: RetryPolicy;
  /** A provider silent this long (no headers, no chunk) fails the request as a timeout (retried like one). */
  idleTimeoutMs: number;
  /** One answer's characters (text and tool-call arguments; reasoning is bounded apart): past this the stream is stopped and the answer kept up to here, marked cut (issue 25). */
  maxAnswerChars: number;
}

export const DEFAULT_CHAT_POLICY: ChatPolicy = { maxRounds: 20, maxDepth: 2, retry: DEFAULT_RETRY_POLICY, idleTimeoutMs: 5 * 60_000, maxAnswerChars: DEFAULT_MAX_ANSWER_CHARS };

export function chatPolicy(overrides: Partial<Omit<ChatPolicy, 'retry'>> & { retry?: Partial<RetryPolicy> } = {}): ChatPolicy {
  return { ...DEFAULT_CHAT_POLICY, ...overrides, retry: { ...DEFAULT_RETRY_POLICY, ...overrides.retry } };
}

/** A saved image, by file: each face turns it into its own url. */
export interface ArtifactFile {
  file: string;
  mimeType: string;
}

/** What a running conversation tells the faces, scoped by conversation id. */
export type ChatEvent =
  | { type: 'delta'; conversationId: string; messageId: string; text: string }
  /**
   * The next piece of what the model thinks before it answers (kept apart from the answer's text).
   * `fromAnswer`: the text streamed as this answer's so far was thinking (a lone `</think>` said so): it moves over.
   */
  | { type: 'reasoning'; conversationId: string; messageId: string; text: string; fromAnswer?: true }
  /** `artifacts`: the images the message carries (a user's attachments), by their path in the conversation's folder. */
  | { type: 'message'; conversationId: string; message: ConversationMessage; artifacts?: (ArtifactFile & { artifact: string })[] }
  | { type: 'toolCall'; call: Omit<ToolCallEvent, 'artifacts'> & { artifacts?: ArtifactFile[] } }
  | { type: 'status'; status: ChatStatusEvent }
  /** The list of conversations changed (created, renamed, deleted, started, stopped). */
  | { type: 'conversations' };
