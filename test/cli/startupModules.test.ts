import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startProviderServer } from '../helpers/providerServer.js';
import { runCli, runCliProcess, runCliProcessAsync } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

const register = pathToFileURL(path.join(repoRoot, 'test', 'fixtures', 'moduleLog', 'register.mjs')).href;
const PROVIDER_SDK = /\/node_modules\/(openai|@anthropic-ai\/sdk)\//;
/** The built-in calculator's and fetch tool's libraries: loaded by a call to them, not by every run. */
const BUILTIN_TOOL_LIBS = /\/node_modules\/(mathjs|turndown)\//;
/** OpenAI's tokenizer (70–80 MB once loaded): only for a conversation near its model's context window. */
const TOKENIZER = /\/node_modules\/gpt-tokenizer\//;

/**
 * For a base on a server and for an ACP agent's gateway only: node-postgres (~20 ms to load) and the SDK's HTTP server
 * transport, whose @hono/node-server reads Node's fetch classes as it loads (~25 ms).
 */
const SERVER_SIDE_LIBS = /^\/\/ node_modules\/(pg|@hono\/node-server)\//;

/** The modules bundled into a file of the built CLI, as its region comments name them (`// node_modules/...`). */
const modulesIn = (url: string) => fs.readFileSync(new URL(url), 'utf8').match(/^\/\/ \S+$/gm) ?? [];

/** The modules a chatos run resolved, from a resolve hook loaded with --import. */
function loggedModules(log: string): string[] {
  return fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

/** The files of the built CLI: its first file and the chunks its commands load. */
function cliFiles(): string[] {
  const dir = path.join(repoRoot, 'dist', 'cli');
  return [path.join(dir, 'chatos.cjs'), ...fs.readdirSync(path.join(dir, 'chunks')).map((name) => path.join(dir, 'chunks', name))];
}

/** The provider SDKs take ~350 ms to import: only a command that talks to a model pays for them. */
describe('what a chatos command loads', () => {
  it('a command that talks to no model loads no provider SDK', () => {
    const home = tempDir();
    const log = path.join(tempDir(), 'modules.log');
    const run = runCliProcess(['apps', '--json', '--home', home], { env: { NODE_OPTIONS: `--import ${register}`, CHATOS_MODULE_LOG: log } });
    expect(run.code).toBe(0);
    const modules = loggedModules(log);
    // The host ran (it listed the built-in apps) and the hook saw every module load, required or imported (the next test
    // sees the SDK there): no provider SDK was loaded.
    expect(run.json<{ apps: unknown[] }>().apps.length).toBeGreaterThan(0);
    expect(modules.some((url) => url.endsWith('/dist/cli/chatos.cjs'))).toBe(true);
    expect(modules.some((url) => url.includes('/node_modules/sql.js/'))).toBe(true);
    expect(modules.filter((url) => PROVIDER_SDK.test(url))).toEqual([]);
    expect(modules.filter((url) => BUILTIN_TOOL_LIBS.test(url))).toEqual([]);
    expect(modules.filter((url) => TOKENIZER.test(url))).toEqual([]);
    expect(modules.filter((url) => url.includes('/node_modules/pg/'))).toEqual([]);
    const loadedChunks = modules.filter((url) => url.startsWith('file:') && url.endsWith('.cjs'));
    expect(loadedChunks.flatMap(modulesIn).filter((m) => SERVER_SIDE_LIBS.test(m))).toEqual([]);
    // Nor does any file of the CLI require them up front: only a lazy import() names them.
    for (const file of cliFiles()) expect(fs.readFileSync(file, 'utf8').match(/require\("(openai|@anthropic-ai\/sdk|mathjs|turndown|unpdf|gpt-tokenizer)["/]/g) ?? [], file).toEqual([]);
  });

  it('--help and a missing argument are answered from the command definitions alone: no action, no core, no zod', async () => {
    const modulesOf = (args: string[]) => {
      const log = path.join(tempDir(), 'modules.log');
      const run = runCliProcess(args, { env: { NODE_OPTIONS: `--import ${register}`, CHATOS_MODULE_LOG: log } });
      return { run, files: loggedModules(log).filter((url) => url.startsWith('file:')) };
    };
    const help = modulesOf(['--help']);
    expect(help.run.code).toBe(0);
    expect(help.run.stdout).toContain('Usage: chatos [options] [command]');
    const usage = modulesOf(['agents', 'show']);
    expect(usage.run.code).toBe(2);
    expect(usage.run.stderr).toContain("missing required argument 'id'");
    // The first file, the bundler's runtime and the chunks the first file requires up front (the light modules it shares
    // with the actions: errors, output): no action's code, nothing from node_modules but commander, none of the core's services, no zod
    // (whose schemas alone cost ~25 ms of CPU to build), no sql.js.
    for (const { files } of [help, usage]) {
      expect(files.filter((url) => !/\/bin\/chatos\.js$|\/dist\/cli\/(chatos|chunks\/[\w-]+)\.cjs$/.test(url))).toEqual([]);
      const heavy = files
        .filter((url) => url.endsWith('.cjs'))
        .flatMap(modulesIn)
        .filter((m) => /^\/\/ (node_modules\/(?!commander\/)|dist\/src\/core\/host\.js|dist\/src\/cli\/actions\/)/.test(m));
      expect(heavy).toEqual([]);
    }
    // The same definitions show the same help in process (commands run in-process in the other tests).
    expect((await runCli(['--help'])).stdout).toBe(help.run.stdout);
  });

  it('a command that does talk to a model loads its SDK then, and works', async () => {
    const provider = await startProviderServer();
    const home = tempDir();
    const log = path.join(tempDir(), 'modules.log');
    const env = { NODE_OPTIONS: `--import ${register}`, CHATOS_MODULE_LOG: log };
    const added = await runCli(['models', 'add', 'local', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'test-model', '--home', home]);
    expect(added.code, added.stderr).toBe(0);
    provider.enqueue({ kind: 'reply', text: 'OK' });
    const tested = await runCliProcessAsync(['models', 'test', 'local', '--home', home], { env });
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toContain('"OK"');
    expect(loggedModules(log).some((url) => /\/node_modules\/openai\//.test(url))).toBe(true);
  });

  it("an OpenAI model's tokenizer is loaded only for a conversation near its context window", async () => {
    const provider = await startProviderServer();
    const home = tempDir();
    const agentFile = path.join(home, 'agent.json');
    fs.writeFileSync(agentFile, JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'roomy', systemPrompt: 'Be brief.' }));
    for (const [id, window] of [
      ['roomy', '128000'],
      ['tight', '30'],
    ]) {
      const added = await runCli(['models', 'add', id!, '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'gpt-4o-mini', '--context-window', window!, '--home', home]);
      expect(added.code, added.stderr).toBe(0);
    }
    expect((await runCli(['agents', 'create', '--file', agentFile, '--home', home])).code).toBe(0);
    const chatLoads = async (model: string) => {
      const log = path.join(tempDir(), 'modules.log');
      provider.enqueue({ kind: 'reply', text: 'OK' });
      const run = await runCliProcessAsync(['chat', '--agent', 'helper', '--model', model, '-m', 'What is the capital of France?', '--home', home], {
        env: { NODE_OPTIONS: `--import ${register}`, CHATOS_MODULE_LOG: log },
      });
      expect(run.code, run.stderr).toBe(0);
      return loggedModules(log).filter((url) => TOKENIZER.test(url));
    };
    // Far below the window, the per-script estimate decides: no 70 MB of ranks for a short question.
    expect(await chatLoads('roomy')).toEqual([]);
    // Near it, the model's own count does.
    expect((await chatLoads('tight')).some((url) => url.includes('o200k_base'))).toBe(true);
  });
});
