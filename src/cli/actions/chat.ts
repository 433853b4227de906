import * as readline from 'node:readline';
import type { Command } from 'commander';
import { ChatError, MessageLogError } from '../../core/facades/errors.js';
import type { StartedTurn, TurnOutcome } from '../../core/facades/chat.js';
import type { Host } from '../../core/host.js';
import { answerLimitOf } from '../answerLimitOption.js';

import { answerQuestions } from '../chatQuestions.js';
import { oneAtATime, type Ask } from '../confirmationQuestion.js';
import { printAnswers, turnPrinter } from '../chatPrinter.js';
import { commit, globalOptions, withStartedHost } from '../globalOptions.js';
import { printJson, printProblems, UsageError, UserError, type CliContext, type CliIo } from '../output.js';

interface ChatOptions {
  agent?: string;
  message?: string;
  conversation?: string;
  yes?: boolean;
  maxRounds?: string;
  maxAnswerChars?: number;
  model?: string;
  continue?: boolean;
  /** Files to attach to the message (-m, or the first one of a session). */
  attach: string[];
}

/** Exit codes of one turn: done 0, stopped by an error or a limit 1, stopped by Ctrl+C 130 (as a shell reports SIGINT). */
const EXIT_OF_STOP = { error: 1, 'round-limit': 1, interrupted: 1, 'answer-limit': 1, user: 130 } as const;

/** Chat errors as the CLI reports them: a problem to fix, with the fix. */
export function asUserError(error: unknown): never {
  if (error instanceof ChatError || error instanceof MessageLogError) throw new UserError(error.message, error.hint);
  throw error;
}

export function chatStep<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    asUserError(error);
  }
}

function checkOptions(opts: ChatOptions, json: boolean, io: CliIo): { maxRounds?: number } {
  if (opts.continue) {
    if (!opts.conversation) throw new UsageError('--continue goes on with a cut answer of a conversation: give --conversation ID');
    if (opts.message !== undefined) throw new UsageError('--continue takes no -m: it goes on with the answer that was cut');
    if (opts.attach.length) throw new UsageError('--continue takes no --attach: it goes on with the answer that was cut');
  } else {
    if (!opts.agent && !opts.conversation) throw new UsageError('say whom to chat with: --agent ID (or --conversation ID to continue one)');
    if (opts.message !== undefined && !opts.message.trim() && !opts.attach.length) throw new UsageError('-m needs the text of your message');
    if (opts.message === undefined && json) throw new UsageError('--json needs -m TEXT (one turn); an interactive session prints as it goes');
    if (opts.message === undefined && !io.stdin.isTTY) throw new UsageError('give the message with -m TEXT, or run chatos chat on a terminal for an interactive session');
  }
  if (opts.maxRounds === undefined) return {};
  const maxRounds = Number(opts.maxRounds);
  if (!Number.isInteger(maxRounds) || maxRounds < 1) throw new UsageError(`--max-rounds must be a whole number of at least 1, not "${opts.maxRounds}"`);
  return { maxRounds };
}

/** The conversation to continue (it must exist, and be the agent's when both are given). */
function targetOf(host: Host, opts: ChatOptions): { conversationId?: string; agentId?: string } {
  if (!opts.conversation) return { agentId: opts.agent! };
  const { conversation } = chatStep(() => host.chat.get(opts.conversation!));
  if (opts.agent && conversation.agentId !== opts.agent)
    throw new UserError(`conversation ${conversation.id} is with agent "${conversation.agentId}", not "${opts.agent}"`, `leave out --agent, or start a new conversation with --agent ${opts.agent}`);
  return { conversationId: conversation.id };
}

/** Says how the turn ended, on stderr; returns the exit code. */
function reportEnd(io: CliIo, outcome: TurnOutcome, declined: number): number {
  printProblems(io, outcome.problems);
  if (declined) io.err(`note: ${declined} tool call(s) needed confirmation and were declined (no terminal to ask on); rerun with --yes to approve them`);
  const { stop } = outcome;
  if (!stop) return 0;
  if (stop.kind === 'user') io.err(`stopped; continue with: chatos chat --conversation ${outcome.conversationId}`);
  else io.err(`${stop.kind === 'error' ? 'error' : 'stopped'}: ${stop.message}${stop.hint ? `\n    fix: ${stop.hint}` : ''}\n    conversation: ${outcome.conversationId}`);
  return EXIT_OF_STOP[stop.kind];
}

/**
 * Runs one turn to its end, Ctrl+C stopping it; prints as the terminal or the pipe wants (the thinking not at all with
 * --json: it is in the JSON). Confirmations and what servers ask share the terminal, one question at a time; with
 * --json what servers ask is declined.
 */
async function runTurn(host: Host, io: CliIo, start: () => StartedTurn, terminal: Ask | undefined, yes: boolean, json = false): Promise<{ outcome: TurnOutcome; declined: number; streamed: boolean }> {
  const ask = terminal && oneAtATime(terminal);
  const questions = answerQuestions(host, io, { yes, ...(ask ? { ask } : {}), ...(ask && !json ? { serverAsk: ask } : {}) });
  let printer: ReturnType<typeof turnPrinter> | undefined;
  const unsubscribe = host.chat.onEvent((event) => printer?.onEvent(event));
  let started: StartedTurn | undefined;
  let interrupts = 0;
  const onSigint = () => {
    // A second Ctrl+C does not wait for the stop to finish.
    if (++interrupts > 1) process.exit(130);
    if (started) host.chat.stop(started.conversationId);
  };
  process.on('SIGINT', onSigint);
  try {
    started = chatStep(start);
    printer = turnPrinter(io, started.conversationId, { json });
    const outcome = await started.done;
    return { outcome, declined: questions.declinedWithoutTerminal(), streamed: printer.streamed };
  } finally {
    process.off('SIGINT', onSigint);
    unsubscribe();
    questions.stop();
  }
}

/**
 * Reads each --attach file as the host would any attachment (docs/using/chat.md#attachments): a file too
 * large, of a type the host cannot read, or without text stops here,
 * before anything is sent. Returns the ids the message names.
 */
async function attachAll(host: Host, io: CliIo, files: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const file of files) {
    try {
      const attachment = await host.chat.attachFile(file);
      if (attachment.totalChars !== undefined) io.err(`note: ${attachment.name} has ${attachment.totalChars} characters of text; only the first ${attachment.chars} are sent`);
      ids.push(attachment.id);
    } catch (error) {
      asUserError(error);
    }
  }
  return ids;
}

/** `chatos chat -m TEXT` (one user turn), or `--continue` (the cut answer goes on), to its end. */
async function oneTurn(host: Host, cli: CliContext, opts: ChatOptions, json: boolean): Promise<void> {
  const { io } = cli;
  const target = targetOf(host, opts);
  const attachments = await attachAll(host, io, opts.attach);
  // --yes approves confirmations without asking; what a server asks still needs the terminal.
  const ask = io.ask;
  const model = opts.model !== undefined ? { modelId: opts.model } : {};
  const start = opts.continue
    ? () => {
        if (opts.model !== undefined) host.chat.setModel(target.conversationId!, opts.model);
        return host.chat.continue(target.conversationId!);
      }
    : () => host.chat.send({ ...target, text: opts.message!, ...model, ...(attachments.length ? { attachments } : {}) });
  const { outcome, declined, streamed } = await runTurn(host, io, start, ask, opts.yes === true, json);
  await commit(host);
  if (json) printJson(io, { conversationId: outcome.conversationId, status: outcome.status, ...(outcome.stop ? { stop: outcome.stop } : {}), messages: outcome.messages });
  else if (!streamed) printAnswers(io, outcome);
  cli.exitCode = reportEnd(io, outcome, declined);
}

/** `chatos chat` on a terminal: a prompt loop; Ctrl+C stops the answer being written, Ctrl+D (or /quit) ends the session. */
async function interactive(host: Host, cli: CliContext, opts: ChatOptions): Promise<void> {
  const { io } = cli;
  let target = targetOf(host, opts);
  let pendingModel = opts.model;
  let pendingAttachments = await attachAll(host, io, opts.attach);
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true, prompt: 'you> ' });
  let running: string | undefined;
  let asking: ((answer: string) => void) | undefined;
  const ask: Ask = (question) =>
    new Promise((resolve) => {
      asking = resolve;
      io.err(question);
    });
  io.err(
    `chatting with agent ${target.agentId ?? host.chat.get(target.conversationId!).conversation.agentId}${target.conversationId ? ` in conversation ${target.conversationId}` : ''}; Ctrl+C stops an answer, Ctrl+D quits`,
  );
  await new Promise<void>((resolve) => {
    rl.on('SIGINT', () => {
      if (running) host.chat.stop(running);
      else {
        io.err('(Ctrl+D quits)');
        rl.prompt();
      }
    });
    rl.on('close', () => resolve());
    rl.on('line', (line) => {
      if (asking) {
        const answer = asking;
        asking = undefined;
        return answer(line);
      }
      const text = line.trim();
      if (running) return;
      if (text === '/quit' || text === '/exit') return rl.close();
      if (!text) return rl.prompt();
      void (async () => {
        try {
          const { outcome, streamed } = await runTurn(
            host,
            io,
            () => {
              // --model switches the conversation with the first message; it stays switched.
              // --attach goes with the first message, as --model does.
              const started = host.chat.send({
                ...target,
                text,
                ...(pendingModel !== undefined ? { modelId: pendingModel } : {}),
                ...(pendingAttachments.length ? { attachments: pendingAttachments } : {}),
              });
              pendingModel = undefined;
              pendingAttachments = [];
              running = started.conversationId;
              return started;
            },
            ask,
            opts.yes === true,
          );
          target = { conversationId: outcome.conversationId };
          if (!streamed) printAnswers(io, outcome);
          reportEnd(io, outcome, 0);
          await commit(host);
        } catch (error) {
          io.err(`error: ${(error as Error).message}${(error as UserError).hint ? `\n    fix: ${(error as UserError).hint}` : ''}`);
        } finally {
          running = undefined;
          rl.prompt();
        }
      })();
    });
    rl.prompt();
  });
  // Ctrl+D during an answer: it is stopped and written before the host closes.
  if (running) host.chat.stop(running);
}

export async function chat(cli: CliContext, opts: ChatOptions, command: Command): Promise<void> {
  const options = globalOptions(command);
  const { maxRounds } = checkOptions(opts, options.json, cli.io);
  await withStartedHost(options, (host) => (opts.message !== undefined || opts.continue ? oneTurn(host, cli, opts, options.json) : interactive(host, cli, opts)), {
    chat: { ...(maxRounds ? { maxRounds } : {}), ...answerLimitOf(opts.maxAnswerChars) },
  });
}
