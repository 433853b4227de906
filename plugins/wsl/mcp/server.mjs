#!/usr/bin/env node
// The WSL app's MCP server (stdio). On Windows it lists the WSL
// distributions and, once the user confirms, runs a command in one, starts
// or stops one. Elsewhere it starts, says in its instructions that WSL is
// Windows-only, and offers no tools: the registry row stays (as for every
// built-in app), nothing in it can run. Built with the v2 server package and
// served by serveStdio, so it speaks both protocol eras (2026-07-28
// statelessly, 2025 over initialize). Log to stderr only.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import * as wsl from '../lib/wsl.mjs';

const windows = wsl.onWindows();
/** Every tool, registered on one server per connection (serveStdio makes it once the opening message says the era). */
const tools = [];

const text = (value) => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }] });

function wslTool(name, description, inputSchema, annotations, run) {
  tools.push((server) =>
    server.registerTool(name, { description, inputSchema, annotations }, async (args) => {
      try {
        const result = await run(args);
        return { ...text(result), structuredContent: result };
      } catch (error) {
        return { ...text(error instanceof wsl.WslProblem ? error.message : `wsl.exe failed: ${error.message}`), isError: true };
      }
    }),
  );
}

const distribution = z.string().max(64).describe('The distribution name, as list_distributions gives it');

if (windows) {
  wslTool('list_distributions', 'The installed WSL distributions: name, state (Running, Stopped…), WSL version, and the default.', {}, { readOnlyHint: true }, () => wsl.listDistributions());
  wslTool(
    'run_command',
    `Run a program in a distribution with its arguments as a list (no shell: write ["sh", "-c", "…"] to use one). Output is cut at ${wsl.LIMITS.outputBytes / 1024} KB. The user confirms first.`,
    { distribution, command: z.array(z.string()).min(1).max(wsl.LIMITS.args), user: z.string().max(32).optional() },
    { destructiveHint: true },
    (args) => wsl.runCommand(args.distribution, args.command, { user: args.user }),
  );
  wslTool('start_distribution', 'Start a distribution. The user confirms first.', { distribution }, { destructiveHint: true }, (args) => wsl.start(args.distribution));
  wslTool('stop_distribution', 'Stop (terminate) a distribution: what runs in it is ended. The user confirms first.', { distribution }, { destructiveHint: true }, (args) =>
    wsl.stop(args.distribution),
  );
}

serveStdio(() => {
  const server = new McpServer(
    { name: 'chatos.wsl.wsl', version: '0.1.0' },
    { capabilities: { tools: {} }, instructions: windows ? 'WSL distributions on this Windows computer. Running a command, starting and stopping ask the user first.' : wsl.ONLY_ON_WINDOWS },
  );
  for (const register of tools) register(server);
  return server;
});
