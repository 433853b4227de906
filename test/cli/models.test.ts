import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/gatewayHost.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { runCli, runCliProcessAsync, type CliRun } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/** `chatos models` as a user runs it, against the local provider server. */

const KEY = 'sk-cli-models-Zq81xXw3PLk';

function world() {
  const home = tempDir();
  const runs: CliRun[] = [];
  const cli = async (args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) => {
    // An environment of its own is a process of its own.
    const run = options.env ? await runCliProcessAsync([...args, '--home', home], options) : await runCli([...args, '--home', home], options);
    runs.push(run);
    return run;
  };
  return { home, runs, cli };
}

const addLocal = (cli: ReturnType<typeof world>['cli'], server: ProviderServer, id = 'local', api = 'openai') =>
  cli(['models', 'add', id, '--api', api, '--base-url', api === 'anthropic' ? server.url : server.openaiUrl, '--model', 'test-model', '--api-key-stdin'], { input: `${KEY}\n` });

/** Every file under `dir` (recursively) but `except`, as bytes. */
function filesUnder(dir: string, except: string): [string, Buffer][] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && file !== except ? [[file, fs.readFileSync(file)] as [string, Buffer]] : [];
  });
}

describe('chatos models', { timeout: 120_000 }, () => {
  it('add (key from stdin), list, test, remove: the key is sent to the provider and found nowhere else', async () => {
    const server = await startProviderServer();
    const { home, runs, cli } = world();
    const added = await addLocal(cli, server);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('added model local: [openai] test-model @ ' + server.openaiUrl);
    expect(added.stdout).toContain(`its key is stored in a file only you can read: ${path.join(home, 'chatos', 'secrets.json')}`);

    const listed = (await cli(['models', 'list', '--json'])).json();
    expect(listed.models).toEqual([expect.objectContaining({ id: 'local', api: 'openai', model: 'test-model', key: { kind: 'stored' }, keyState: { source: 'stored', set: true } })]);
    expect((await cli(['models', 'list'])).stdout).toContain('local  local  [openai] test-model @');

    server.enqueue({ kind: 'reply', text: 'OK', usage: { input: 5, output: 1 } });
    const tested = await cli(['models', 'test', 'local']);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/^ok: local \(test-model at .*\) answered in \d+ ms: "OK"/);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    server.enqueue({ kind: 'reply', text: 'OK' });
    expect((await cli(['models', 'test', 'local', '--json'])).json()).toMatchObject({ model: 'local', ok: true, text: 'OK' });

    const removed = await cli(['models', 'remove', 'local']);
    expect(removed.stdout).toContain('removed model local and its stored key');
    expect(JSON.parse(fs.readFileSync(path.join(home, 'chatos', 'secrets.json'), 'utf8')).secrets).toEqual({});
    expect((await cli(['models', 'list', '--json'])).json().models).toEqual([]);

    // The key was in the secrets file only: not in the admin DB, a log, the audit, or anything printed.
    for (const [file, bytes] of filesUnder(home, path.join(home, 'chatos', 'secrets.json'))) expect(bytes.includes(Buffer.from(KEY)), file).toBe(false);
    for (const run of runs) expect(`${run.stdout}${run.stderr}`).not.toContain(KEY);
  });

  it('test says exactly what failed, exits 1, and never prints the key the provider echoed', async () => {
    const server = await startProviderServer();
    const { runs, cli } = world();
    await addLocal(cli, server);
    const failing = async (scripted: Parameters<ProviderServer['enqueue']>[0], ...extra: string[]) => {
      server.enqueue(scripted);
      const run = await cli(['models', 'test', 'local', ...extra]);
      expect(run.code).toBe(1);
      return run.stderr;
    };
    expect(await failing({ kind: 'error', status: 401, message: `Incorrect API key provided: ${KEY}` })).toContain(
      'HTTP 401: the provider refused the key (missing, wrong or expired): Incorrect API key provided: ***',
    );
    expect(await failing({ kind: 'error', status: 404, message: 'The model `test-model` does not exist' })).toContain('HTTP 404: unknown model "test-model" or wrong base URL');
    expect(await failing({ kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '20' } })).toContain('HTTP 429: rate limited (retry after 20 s): slow down');
    expect(await failing({ kind: 'error', status: 503, message: 'overloaded' })).toContain('HTTP 503: the provider failed: overloaded');
    expect(await failing({ kind: 'error', status: 400, message: 'max_tokens is too large' })).toContain('HTTP 400: the provider rejected the request: max_tokens is too large');
    expect(await failing({ kind: 'hang' }, '--timeout', '1')).toContain('timeout: 127.0.0.1');
    const json = await cli(['models', 'test', 'local', '--json']); // the queue is empty now: the server says so with a 500
    expect(json.code).toBe(1);
    expect(json.json()).toMatchObject({ model: 'local', ok: false, error: { kind: 'server', status: 500 } });
    for (const run of runs) expect(`${run.stdout}${run.stderr}`).not.toContain(KEY);
  });

  it('test names DNS, a refused connection and TLS', async () => {
    const server = await startProviderServer();
    const { cli } = world();
    const port = await freePort();
    await cli(['models', 'add', 'dns', '--api', 'openai', '--base-url', 'http://chatos-test.invalid/v1', '--model', 'm']);
    await cli(['models', 'add', 'refused', '--api', 'anthropic', '--base-url', `http://127.0.0.1:${port}`, '--model', 'm']);
    await cli(['models', 'add', 'tls', '--api', 'openai-responses', '--base-url', `${server.url.replace('http:', 'https:')}/v1`, '--model', 'm']);
    expect((await cli(['models', 'test', 'dns'])).stderr).toContain('DNS: the host name chatos-test.invalid could not be resolved');
    const refused = await cli(['models', 'test', 'refused']);
    expect(refused.stderr).toContain(`connection refused by 127.0.0.1:${port}`);
    expect(refused.stderr).toContain('fix: is the server running and listening there?');
    expect((await cli(['models', 'test', 'tls'])).stderr).toContain('TLS: the secure connection to 127.0.0.1');
  });

  it('--api-key-env reads the variable when a request is made, and says when it is not set', async () => {
    const server = await startProviderServer();
    const { cli } = world();
    const added = await cli(['models', 'add', 'envkey', '--api', 'anthropic', '--base-url', server.url, '--model', 'claude-x', '--api-key-env', 'CHATOS_TEST_KEY', '--json']);
    expect(added.json().model).toMatchObject({ key: { kind: 'env', name: 'CHATOS_TEST_KEY' }, keyState: { source: 'env', env: 'CHATOS_TEST_KEY', set: false } });
    server.enqueue({ kind: 'reply', text: 'OK' });
    expect((await cli(['models', 'test', 'envkey'], { env: { CHATOS_TEST_KEY: 'sk-from-env' } })).code).toBe(0);
    expect(server.requests[0]!.path).toBe('/v1/messages');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-from-env');
    const unset = await cli(['models', 'test', 'envkey']);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain('takes its key from the environment variable CHATOS_TEST_KEY, which is not set');
  });

  it('--preset fills the API, URL, model and the usual key variable; explicit options win', async () => {
    const { cli } = world();
    const ds = (await cli(['models', 'add', 'ds', '--preset', 'deepseek', '--json'])).json().model;
    expect(ds).toMatchObject({ api: 'openai', baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat', name: 'DeepSeek deepseek-chat', key: { kind: 'env', name: 'DEEPSEEK_API_KEY' } });
    const ollama = (await cli(['models', 'add', 'llama', '--preset', 'ollama', '--model', 'qwen3:8b', '--temperature', '0.2', '--json'])).json().model;
    expect(ollama).toMatchObject({ baseUrl: 'http://localhost:11434/v1', model: 'qwen3:8b', temperature: 0.2, key: { kind: 'none' } });
    expect((await cli(['models', 'presets', '--json'])).json().presets.map((p: { id: string }) => p.id)).toEqual([
      'openai',
      'anthropic',
      'deepseek',
      'openrouter',
      'qwen',
      'ollama',
      'lmstudio',
      'openai-compatible',
      'deepseek-reasoner',
      'openai-embedding',
      'ollama-embedding',
    ]);
  });

  it('bad usage exits 2 naming the option; a taken id or an unknown model exits 1', async () => {
    const { cli } = world();
    const both = await cli(['models', 'add', 'x', '--preset', 'openai', '--api-key-env', 'K', '--api-key-stdin'], { input: 'k' });
    expect([both.code, both.stderr]).toEqual([2, 'error: give either --api-key-env VAR or --api-key-stdin, not both\n']);
    const missing = await cli(['models', 'add', 'x', '--api', 'openai']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing --base-url URL, --model NAME');
    const badUrl = await cli(['models', 'add', 'x', '--api', 'openai', '--base-url', 'localhost:1234', '--model', 'm']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--base-url: must be an http:// or https:// URL');
    expect((await cli(['models', 'add', 'x', '--preset', 'nope'])).stderr).toContain('no preset "nope"; one of: openai, anthropic');
    expect((await cli(['models', 'add', 'x', '--preset', 'openai', '--max-tokens', 'lots'])).stderr).toContain('--max-tokens must be a whole number');
    const noKey = await cli(['models', 'add', 'x', '--preset', 'openai', '--api-key-stdin'], { input: '\n' });
    expect([noKey.code, noKey.stderr]).toEqual([2, expect.stringContaining('nothing was read from stdin')]);
    expect((await cli(['models', 'add', 'x', '--preset', 'openai'])).code).toBe(0);
    const taken = await cli(['models', 'add', 'x', '--preset', 'openai']);
    expect([taken.code, taken.stderr]).toEqual([1, expect.stringContaining('a model with id "x" already exists')]);
    const unknown = await cli(['models', 'test', 'y']);
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('no model "y"')]);
    expect((await cli(['models', 'remove', 'y'])).code).toBe(1);
  });

  it('remove warns about agents that named the model, which now show it missing', async () => {
    const { home, cli } = world();
    await cli(['models', 'add', 'gpt', '--preset', 'openai']);
    const agentFile = path.join(home, 'agent.json');
    fs.writeFileSync(agentFile, JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'gpt' }));
    expect((await cli(['agents', 'create', '--file', agentFile])).code).toBe(0);
    const removed = await cli(['models', 'remove', 'gpt']);
    expect(removed.stderr).toContain('warning: these agents name model gpt and have no model now: helper');
    const shown = await cli(['agents', 'show', 'helper', '--json']);
    expect(shown.json().problems.map((p: { code: string }) => p.code)).toEqual(['AGENT_MODEL_MISSING']);
  });
});
