import type { Command } from 'commander';
import { MAX_ATTACHMENT_BYTES } from '../../core/facades/limits.js';
import { answerLimitOption } from '../answerLimitOption.js';
import { lazyAction } from '../lazyAction.js';

import type { CliContext } from '../output.js';

const actions = () => import('../actions/chat.js');

export function registerChat(program: Command, cli: CliContext): void {
  program
    .command('chat')
    .description('chat with an agent: one turn with -m, else an interactive session on a terminal')
    .option('--agent <id>', 'the agent to chat with (a new conversation)')
    .option('-m, --message <text>', 'send this message, run the turn to its end, and exit')
    .option('--conversation <id>', 'continue this conversation (chatos conversations list)')
    .option('--yes', 'approve confirm-level tools without asking')
    .option('--max-rounds <n>', 'model requests per turn before it stops (default 20)')
    .addOption(answerLimitOption())
    .option('--model <id>', "switch the conversation to this model entry (recorded; it answers from now on instead of the agent's)")
    .option('--continue', 'go on with the last answer of --conversation, which the model cut at its token limit')
    .option(
      '--attach <file>',
      `attach a file to the message (repeatable): an image (PNG, JPEG, GIF, WebP) or a text, Markdown, HTML or PDF file, at most ${MAX_ATTACHMENT_BYTES / (1024 * 1024)} MB`,
      (file: string, files: string[]) => [...files, file],
      [],
    )
    .action(lazyAction(cli, actions, (a) => a.chat));
}
