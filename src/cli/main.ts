import { OperationError, StoreError } from '../core/facades/errors.js';
import { Command, CommanderError } from 'commander';
import { registerAgents } from './commands/agents.js';
import { registerApps } from './commands/apps.js';
import { registerAudit } from './commands/audit.js';
import { registerAcp } from './commands/acp.js';
import { registerChat } from './commands/chat.js';
import { registerConversations } from './commands/conversations.js';
import { registerInit } from './commands/init.js';
import { registerKb } from './commands/kb.js';
import { registerMcp } from './commands/mcp.js';
import { registerCatalog } from './commands/catalog.js';
import { registerModels } from './commands/models.js';
import { registerPrompts } from './commands/prompts.js';
import { registerRegistry } from './commands/registry.js';
import { registerRoots } from './commands/roots.js';
import { registerServe } from './commands/serve.js';
import { registerTools } from './commands/tools.js';
import { registerDev } from './commands/dev.js';
import { registerDoctor } from './commands/doctor.js';
import { registerTrust } from './commands/trust.js';
import { registerValidate } from './commands/validate.js';
import { processIo, UsageError, UserError, type CliContext, type CliIo } from './output.js';

// For a program that runs the CLI in its own process (the tests): the same output processIo prints, kept in memory.
export { bufferedIo } from './output.js';
import { notSaved } from './storeFailure.js';

/** The `chatos` program. Commands return their exit code: 0 ok, 1 a problem to fix, 2 bad usage. */
export function buildProgram(cli: CliContext): Command {
  const { io } = cli;
  const program = new Command('chatos')
    .description('ChatOS host: plugins, registry, MCP gateway')
    .option('--home <dir>', 'data home (default: $CHATOS_HOME, then ~/.chatos)')
    .option('--plugins <dir>', 'extra plugin root (repeatable)', (dir: string, all: string[]) => [...all, dir], [] as string[])
    .option('--json', 'print one JSON document on stdout')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  registerValidate(program, cli);
  registerApps(program, cli);
  registerInit(program, cli);
  registerRegistry(program, cli);
  registerRoots(program, cli);
  registerTrust(program, cli);
  registerDev(program, cli);
  registerAgents(program, cli);
  registerTools(program, cli);
  registerModels(program, cli);
  registerMcp(program, cli);
  registerCatalog(program, cli);
  registerPrompts(program, cli);
  registerKb(program, cli);
  registerChat(program, cli);
  registerAcp(program, cli);
  registerConversations(program, cli);
  registerAudit(program, cli);
  registerServe(program, cli);
  registerDoctor(program, cli);
  for (const command of program.commands) command.exitOverride().configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  return program;
}

export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const cli: CliContext = { io, exitCode: 0 };
  const program = buildProgram(cli);
  try {
    await program.parseAsync(argv, { from: 'user' });
    if (argv.length === 0) {
      program.outputHelp();
      return 2;
    }
    return cli.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // 'commander.help' is help shown because no command was given: bad usage.
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    }
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}`);
      return 2;
    }
    // A core operation's refusal (unknown agent, app or server; not allowed) is the user's to fix: exit 1 with its fix.
    const userError = error instanceof StoreError ? notSaved(error) : error instanceof OperationError ? new UserError(error.message, error.hint) : error;
    if (userError instanceof UserError) {
      io.err(`error: ${userError.message}${userError.hint ? `\n    fix: ${userError.hint}` : ''}`);
      return 1;
    }
    // Anything else is said in its own words, never with ChatOS's stack: most are a user's or a server's doing
    // (docs/reference/cli.md#exit-codes-and-output). The stack is for a report of a fault in ChatOS itself.
    io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    io.err(process.env.CHATOS_DEBUG ? `    where: ${stackFrames(error)}` : '    (set CHATOS_DEBUG=1 to see where in ChatOS it happened)');
    return 1;
  }
}

/** The frames of an error's stack (its message is said already), or that it has none. */
function stackFrames(error: unknown): string {
  const stack = error instanceof Error ? error.stack : undefined;
  const frames = stack?.split('\n').filter((line) => /^\s+at\s/.test(line));
  return frames?.length ? `\n${frames.join('\n')}` : '(no stack)';
}
