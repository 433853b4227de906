import type { ChatMessage } from '../models/providers/modelRequest.js';
import { userText } from '../models/providers/modelRequest.js';
import type { AnswerResult } from './modelAnswer.js';

/**
 * A tool call the provider itself could not read (Groq's `tool_use_failed`,
 * reported inside a 200 stream, with what the model wrote in
 * `failed_generation`): the model did not see its mistake, so sending the
 * same request again would only be a gamble. It is asked once more in the
 * same turn, told what went wrong (the note goes with that one request and
 * is not stored); if it fails that way again, the turn stops. Groq's own
 * recordings show the second try succeeding.
 */

/** Per turn: whether the one repair was used. */
export interface RepairState {
  used: boolean;
}

/** What the model is told before its second try (sent, never stored). */
function repairNote(said: string, generated: string | undefined): ChatMessage {
  return userText(
    [
      `Your last tool call could not be read by the provider: ${said}`,
      generated ? `What you wrote was:\n${generated}` : '',
      'Call the tool again with its arguments as one valid JSON object matching its schema, or answer without calling it.',
    ]
      .filter(Boolean)
      .join('\n\n'),
  );
}

/** Asks (`ask()`), and once per turn, when the provider could not read the model's tool call, asks again with the note (`ask(note)`). */
export async function answerRepairingCalls(ask: (note?: ChatMessage) => Promise<AnswerResult>, state: RepairState): Promise<AnswerResult> {
  const first = await ask();
  const failure = first.ok ? undefined : first.stop.provider;
  if (state.used || failure?.remedy?.kind !== 'tool-call') return first;
  state.used = true;
  const second = await ask(repairNote(failure.message, failure.remedy.generated));
  const streamed = second.ok ? second.streamed : second.partial;
  streamed.notices.unshift(`the provider could not read the model's tool call (${failure.message}); the model was told and asked once more`);
  return { ...second, attempts: first.attempts + second.attempts };
}
