import * as path from 'node:path';
import type { AssistantMessage } from '../../src/shared/chat.js';
import { repoRoot } from './tempDir.js';

/** The scripted ACP agent (the ACP SDK's agent side): each prompt's first word says what it does. */
export const SCRIPTED_AGENT = path.join(repoRoot, 'test', 'fixtures', 'acp', 'scriptedAgent.mjs');

/** The text of a turn's answers, in order. */
export const answerOf = (messages: readonly { role: string }[]) =>
  messages
    .filter((m): m is AssistantMessage => m.role === 'assistant')
    .map((m) => m.text)
    .join('');
