import type { ConversationWindowRequest } from '../../../shared/chat.js';
import { ChatError } from '../chatError.js';

/**
 * Which part of a branch a window shows (pure): the newest `limit`
 * messages, the `limit` before or after one, or `limit` around one. A
 * window never starts on a tool result (the answer that called the tool
 * comes along) nor ends before one (the results of its last answer's calls
 * come along), so every call in it shows how it ended.
 */
export function windowBounds(path: readonly { id: string; role: string | undefined }[], request: ConversationWindowRequest): { start: number; end: number } {
  const { limit } = request;
  const anchorId = request.around ?? request.before ?? request.after;
  const at = anchorId === undefined ? -1 : path.findIndex((m) => m.id === anchorId);
  if (anchorId !== undefined && at === -1)
    throw new ChatError('MESSAGE_NOT_FOUND', `message "${anchorId}" is not on this branch of the conversation`, 'open the branch it is on, or search for it again');
  let start: number;
  let end: number;
  if (request.before !== undefined) {
    end = at;
    start = Math.max(0, end - limit);
  } else if (request.after !== undefined) {
    start = at + 1;
    end = Math.min(path.length, start + limit);
  } else if (request.around !== undefined) {
    end = Math.min(path.length, Math.max(0, at - Math.floor(limit / 2)) + limit);
    start = Math.max(0, end - limit);
  } else {
    end = path.length;
    start = Math.max(0, end - limit);
  }
  while (start > 0 && start < end && path[start]!.role === 'tool') start--;
  while (end < path.length && end > start && path[end]!.role === 'tool') end++;
  return { start, end };
}
