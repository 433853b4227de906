import type { SamplingAnswer, SamplingMessage, SamplingRequest } from '../shared/sampling.js';
import { visibleControls, visibleInline } from '../shared/visibleText.js';
import type { Ask } from './confirmationQuestion.js';
import type { KindOnTerminal, QuestionTerminal } from './questionTerminal.js';

/**
 * A part's text in full: y approves what the model gets (and then what the
 * server gets), so the user reads all of it first; a cut text would be
 * approved unseen. The bounds (docs/rules/sampling.md#bounds) keep a
 * request to 100,000 characters, an answer to its maxTokens.
 */
const shown = (text: string) => visibleControls(text);

function partLines(message: Pick<SamplingMessage, 'content'>): string[] {
  return message.content.map((part) => {
    if (part.type === 'text') return shown(part.text);
    if (part.type === 'image') return `[image ${part.mimeType}]`;
    if (part.type === 'tool_use') return `[calls tool ${visibleInline(part.name)}]`;
    return `[result of a tool call${part.isError ? ', an error' : ''}] ${shown(part.text)}`;
  });
}

const indent = (lines: string[]) => lines.flatMap((line) => line.split('\n')).map((line) => `    ${line}`);

const yes = (answer: string) => /^(y|yes)$/i.test(answer.trim());

/**
 * A server that asks for a completion during a chat, on the terminal (docs/using/sampling.md): the request is shown
 * (who asks, the system prompt, the messages) and approved or declined (y/N); the model's answer is then shown and
 * sent or declined (y/N). No edits here: the Chat page has them. Without a terminal (a pipe, --json) every request is
 * declined at once, and said so, instead of waiting for its timeout.
 */
export function samplingOnTerminal({ io, respond, waiting }: QuestionTerminal, noTerminal: boolean): KindOnTerminal<'sampling'> {
  const stageOf = (request: SamplingRequest) => {
    const now = waiting(request.id);
    return now?.kind === 'sampling' ? now.request.stage : undefined;
  };
  const answer = (id: string, answer: SamplingAnswer) => respond(id, { kind: 'sampling', answer });

  const review = async (request: SamplingRequest, terminal: Ask) => {
    if (stageOf(request) !== 'review') return;
    io.err(
      [
        `server ${visibleInline(request.serverName)} asks the model for a completion (sampling, up to ${request.maxTokens} tokens, model ${visibleInline(request.modelId)}):`,
        ...(request.systemPrompt ? ['  system prompt:', ...indent([shown(request.systemPrompt)])] : []),
        ...request.messages.flatMap((message) => [`  ${message.role}:`, ...indent(partLines(message))]),
      ].join('\n'),
    );
    const reply = await terminal('  run it? [y/N] ');
    if (stageOf(request) !== 'review') return io.err('  (the request was taken back before the answer: nothing was run)');
    answer(request.id, yes(reply) ? { action: 'approve' } : { action: 'decline' });
  };

  const send = async (request: SamplingRequest, terminal: Ask) => {
    if (stageOf(request) !== 'completion' || !request.completion) return;
    io.err([`  the model answered (${visibleInline(request.completion.model)}):`, ...indent(partLines(request.completion))].join('\n'));
    const reply = await terminal(`  send this to ${visibleInline(request.serverName)}? [y/N] `);
    if (stageOf(request) !== 'completion') return io.err('  (the request was taken back before the answer: nothing was sent)');
    answer(request.id, yes(reply) ? { action: 'send' } : { action: 'decline' });
  };

  return {
    // Asked for review; its completion shown once the model answered (a terminal reads both).
    asks: (change) => change.change === 'asked' || (!noTerminal && change.question.request.stage === 'completion'),
    atOnce: ({ request }) => {
      if (!noTerminal) return undefined;
      io.err(`note: server ${visibleInline(request.serverName)} asked the model for a completion (sampling); declined: there is no terminal to review it on`);
      return { kind: 'sampling', answer: { action: 'decline' } };
    },
    ask: ({ request }, terminal) => (request.stage === 'completion' ? send(request, terminal) : review(request, terminal)),
    fallback: { kind: 'sampling', answer: { action: 'decline' } },
  };
}
