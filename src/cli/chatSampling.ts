import type { Host } from '../core/host.js';
import type { SamplingMessage, SamplingRequest } from '../shared/sampling.js';
import { visibleControls, visibleInline } from '../shared/visibleText.js';
import type { Ask } from './confirmationQuestion.js';
import type { CliIo } from './output.js';

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
 * The terminal's answers to a server that asks for a completion during a
 * chat (docs/using/sampling.md): the request is shown (who asks, the system
 * prompt, the messages) and approved or declined (y/N); the model's answer is
 * then shown and sent or declined (y/N). No edits here: the Chat page has
 * them. Without a terminal (a pipe, --json) every request is declined at
 * once, and said so, instead of waiting for its timeout.
 */
export function answerChatSampling(host: Host, io: CliIo, ask: Ask | undefined): { stop(): void } {
  const sampling = host.mcp.sampling;
  let queue = Promise.resolve();
  const at = (request: SamplingRequest) => sampling.list().find((r) => r.id === request.id)?.stage;

  const review = async (request: SamplingRequest, terminal: Ask) => {
    if (at(request) !== 'review') return;
    io.err(
      [
        `server ${visibleInline(request.serverName)} asks the model for a completion (sampling, up to ${request.maxTokens} tokens, model ${visibleInline(request.modelId)}):`,
        ...(request.systemPrompt ? ['  system prompt:', ...indent([shown(request.systemPrompt)])] : []),
        ...request.messages.flatMap((message) => [`  ${message.role}:`, ...indent(partLines(message))]),
      ].join('\n'),
    );
    const answer = await terminal('  run it? [y/N] ');
    if (at(request) !== 'review') return io.err('  (the request was taken back before the answer: nothing was run)');
    sampling.respond(request.id, yes(answer) ? { action: 'approve' } : { action: 'decline' });
  };

  const send = async (request: SamplingRequest, terminal: Ask) => {
    if (at(request) !== 'completion' || !request.completion) return;
    io.err([`  the model answered (${visibleInline(request.completion.model)}):`, ...indent(partLines(request.completion))].join('\n'));
    const answer = await terminal(`  send this to ${visibleInline(request.serverName)}? [y/N] `);
    if (at(request) !== 'completion') return io.err('  (the request was taken back before the answer: nothing was sent)');
    sampling.respond(request.id, yes(answer) ? { action: 'send' } : { action: 'decline' });
  };

  const decline = (request: SamplingRequest) => void sampling.respond(request.id, { action: 'decline' });
  const stops = [
    sampling.on('required', (request) => {
      if (!ask) {
        io.err(`note: server ${visibleInline(request.serverName)} asked the model for a completion (sampling); declined: there is no terminal to review it on`);
        return decline(request);
      }
      queue = queue.then(() => review(request, ask)).catch(() => decline(request));
    }),
    sampling.on('updated', (request) => {
      if (ask && request.stage === 'completion') queue = queue.then(() => send(request, ask)).catch(() => decline(request));
    }),
  ];
  return { stop: () => stops.forEach((stop) => stop()) };
}
