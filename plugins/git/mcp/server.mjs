#!/usr/bin/env node
// The Git app's MCP server (stdio): the git operations of ../lib/git.mjs as
// tools. Each call first asks ChatOS for the conversation's workspace roots
// (roots/list) and works only on a repository inside them, so the model
// never picks a folder the user did not give. Built with the v2 server
// package and served by serveStdio, so it speaks both protocol eras: on
// 2026-07-28 the roots are asked inside the call's result (input_required)
// and come back with the call made again; on 2025 the package asks them as a
// roots/list request of its own. Log to stderr only.
import { fileURLToPath } from 'node:url';
import { McpServer, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import * as git from '../lib/git.mjs';

const INSTRUCTIONS = 'Git on the repositories in the workspace folders of this conversation. Reads answer at once; checkout, discard and reset ask the user first.';

/** The conversation's folders as the host answered roots/list for this call (file URIs only); undefined until it was asked. */
function rootsOf(ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
  return answer.kind === 'roots' ? answer.roots.filter((r) => r.uri.startsWith('file:')).map((r) => fileURLToPath(r.uri)) : undefined;
}

/** Every tool, registered on one server per connection (serveStdio makes it once the opening message says the era). */
const tools = [];

const text = (value) => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }] });

/** A tool working on one repository: checks it against the roots, runs, and turns a problem into an error result that says what to change. */
function repoTool(name, description, shape, annotations, run) {
  const inputSchema = { repo: z.string().max(4096).optional().describe('The repository folder: absolute, or relative to the only workspace folder; defaults to the only workspace folder'), ...shape };
  tools.push((server) => server.registerTool(name, { description, inputSchema, annotations }, (args, ctx) => callWithRoots(args, ctx, run)));
}

/** The call, once the host said the conversation's roots: the first round asks them, the call made again with them runs. */
async function callWithRoots(args, ctx, run) {
  const roots = rootsOf(ctx);
  if (roots === undefined) return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
  try {
    const repo = await git.resolveRepo(args.repo, roots);
    const result = await run(repo, args);
    return typeof result === 'string' ? text(result) : { ...text(result), structuredContent: result };
  } catch (error) {
    return { ...text(error instanceof git.GitProblem ? error.message : `git failed: ${error.message}`), isError: true };
  }
}

const paths = z.array(z.string()).min(1).max(git.LIMITS.paths).describe('File paths relative to the repository');
const read = { readOnlyHint: true };

repoTool('status', 'The current branch, its upstream, and the staged and unstaged changed files.', {}, read, (repo) => git.status(repo));
repoTool(
  'diff',
  `The unstaged diff (or the staged one with "staged": true), of some paths or all; cut at ${git.LIMITS.outputBytes / 1024} KB.`,
  { staged: z.boolean().default(false), paths: z.array(z.string()).max(git.LIMITS.paths).optional() },
  read,
  async (repo, args) => (await git.diff(repo, args)).diff || '(no changes)',
);
repoTool(
  'log',
  `The history with a text graph, newest first: at most maxCount commits (${git.LIMITS.logEntries}).`,
  { maxCount: z.number().int().min(1).max(git.LIMITS.logEntries).default(30), graph: z.boolean().default(true), all: z.boolean().default(false).describe('Every branch, not only the current one') },
  read,
  async (repo, args) => (await git.log(repo, args)).log || '(no commits yet)',
);
repoTool('branches', 'The local branches, which one is checked out, and their upstreams.', {}, read, (repo) => git.branches(repo));
repoTool('stage', 'Stage files (git add), new, changed or deleted ones.', { paths }, {}, (repo, args) => git.stage(repo, args.paths));
repoTool('unstage', 'Unstage files; their changes stay in the working tree.', { paths }, {}, (repo, args) => git.unstage(repo, args.paths));
repoTool(
  'commit',
  `Commit what is staged with the message (at most ${git.LIMITS.messageBytes / 1024} KB). Hooks do not run.`,
  { message: z.string().describe('The commit message: a subject line, a blank line, then why') },
  {},
  (repo, args) => git.commit(repo, args.message),
);
repoTool(
  'checkout',
  'Switch to a local branch, or create one ("create": true, from startPoint or the current commit). The user confirms first.',
  { branch: z.string().max(255), create: z.boolean().default(false), startPoint: z.string().max(255).optional() },
  { destructiveHint: true },
  (repo, args) => git.checkout(repo, args),
);
repoTool('discard', 'Throw away the unstaged changes of files (git restore); they cannot be got back. The user confirms first.', { paths }, { destructiveHint: true }, (repo, args) =>
  git.discard(repo, args.paths),
);
repoTool(
  'reset',
  'Move the current branch to target (git reset --soft/--mixed/--hard); hard throws away every uncommitted change. The user confirms first.',
  { mode: z.enum(['soft', 'mixed', 'hard']).default('mixed'), target: z.string().max(255).default('HEAD') },
  { destructiveHint: true },
  (repo, args) => git.reset(repo, args),
);

serveStdio(() => {
  const server = new McpServer({ name: 'chatos.git.git', version: '0.1.0' }, { instructions: INSTRUCTIONS });
  for (const register of tools) register(server);
  return server;
});
