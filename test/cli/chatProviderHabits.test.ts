import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';

/**
 * `chatos chat` (in-process, the built CLI) against providers' habits
 * replayed byte for byte over real HTTP (test/fixtures/providerStreams
 * names each one's public source): one scenario per habit, each asserting
 * what a person sees.
 */

let provider: ProviderServer;
let home: string;
const cli = (args: string[]) => runCli([...args, '--home', home]);
async function must(args: string[]) {
  const run = await cli(args);
  expect(run.code, `chatos ${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run;
}

beforeAll(async () => {
  provider = await startProviderServer({ models: ['recorded-model'], modelList: 'together-models-bare-array', shared: true });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-cli-habits-'));
  for (const [id, api, model] of [
    ['local', 'openai', 'recorded-model'],
    ['anth', 'anthropic', 'claude-sonnet-4-6'],
  ] as const) {
    await must(['models', 'add', id, '--api', api, '--base-url', api === 'anthropic' ? provider.url : provider.openaiUrl, '--model', model]);
  }
  const agentFile = path.join(home, 'agent.json');
  fs.writeFileSync(agentFile, JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'local', systemPrompt: 'Be brief.' }));
  await must(['agents', 'create', '--file', agentFile]);
}, 300_000);

afterAll(async () => {
  await provider.close();
  fs.rmSync(home, { recursive: true, force: true });
});

let seen = 0;
beforeEach(() => void (seen = provider.requests.length));
const requests = () => provider.requests.slice(seen);
const replays = (...names: string[]) => provider.enqueue(...names.map((name) => ({ kind: 'fixture' as const, name })));
const chat = (model: string, message: string, ...more: string[]) => cli(['chat', '--agent', 'helper', ...(model === 'local' ? [] : ['--model', model]), '-m', message, ...more]);
const assistants = (json: any) => json.messages.filter((m: any) => m.role === 'assistant');

describe("chatos chat against providers' habits", { timeout: 240_000 }, () => {
  it('llama.cpp says the prompt is over its context in its own words: the context-too-long meaning, and Summarize and retry offered', async () => {
    replays('llamacpp-exceed-context-size');
    const run = await chat('local', 'a long question', '--json');
    expect(run.code).toBe(1);
    expect(requests()).toHaveLength(1);
    expect(run.json().stop).toMatchObject({ code: 'PROVIDER_CONTEXT_TOO_LONG', provider: { kind: 'context-too-long' } });
    expect(run.stderr).toMatch(/error: the conversation is longer than model "local" takes \(the request exceeds the available context size/);
    expect(run.stderr).toMatch(/fix: summarize the older turns and retry \(Summarize and retry on the Chat page\)/);
  });

  it('Qwen3 Thinking-2507 streams only </think>: the thought on stderr, the answer alone on stdout', async () => {
    replays('qwen3-thinking-lone-close-tag');
    const run = await chat('local', '1+1?');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('1 + 1 = **2**.\n');
    expect(run.stderr).toContain('Okay, the user asks how much 1+1 is. Simple addition: the answer is 2.');
    expect(run.stdout).not.toContain('think>');
  });

  it('OpenRouter: an error with a numeric code inside the 200 stream is one request, not four, and the cut is recorded', async () => {
    replays('openrouter-error-after-length');
    const run = await chat('local', 'the oldest universities?', '--json');
    expect(run.code).toBe(1);
    expect(requests()).toHaveLength(1);
    const [answer] = assistants(run.json());
    expect(answer).toMatchObject({ text: 'The three oldest universities are Bologna, Oxford and', finish: 'length', status: 'stopped' });
    expect(run.json().stop).toMatchObject({ code: 'PROVIDER_REJECTED', provider: { status: 400 } });
  });

  it("the cause's words: OpenRouter's metadata.raw and Gemini's array body, never \"(no body)\"", async () => {
    replays('openrouter-metadata-raw-400');
    const routed = await chat('local', 'x');
    expect(routed.stderr).toContain('Provider returned error (Google: Unable to submit request because Thought signature is not valid.');
    replays('gemini-openai-array-400');
    const gemini = await chat('local', 'x');
    expect(gemini.stderr).toContain('Invalid JSON payload received. Unknown name "prompt_cache_key": Cannot find field.');
    expect(gemini.stderr).not.toContain('no body');
  });

  it("Groq's tool_use_failed inside a 200 stream: asked once more, told why, and it answers; twice in a row stops", async () => {
    replays('groq-tool-use-failed-in-stream');
    provider.enqueue({ kind: 'reply', text: 'Hello!' });
    const run = await chat('local', 'say hello with the echo tool');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Hello!\n');
    expect(requests()).toHaveLength(2);
    const note = requests()[1]!.body.messages.at(-1);
    expect(note.role).toBe('user');
    expect(note.content).toContain('Your last tool call could not be read by the provider: Failed to call a function.');
    expect(note.content).toContain('<function=mcp_chat_echo{"text": "hello"}</function>');
    expect(run.stderr).toContain("note: the provider could not read the model's tool call");

    seen = provider.requests.length;
    replays('groq-tool-use-failed-in-stream', 'groq-tool-use-failed-in-stream');
    const twice = await chat('local', 'again', '--json');
    expect(twice.code).toBe(1);
    expect(requests()).toHaveLength(2);
    expect(twice.json().stop).toMatchObject({ code: 'PROVIDER_REJECTED', provider: { remedy: { kind: 'tool-call' } } });
  });

  it("Anthropic's pause_turn: the content is sent back as-is, ending with the open server-tool block, and the turn goes on to its whole answer", async () => {
    replays('anthropic-pause-turn-web-search', 'anthropic-pause-turn-continued');
    const run = await chat('anth', 'latest rover news?', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(requests()).toHaveLength(2);
    const [paused, whole] = assistants(run.json());
    expect(paused).toMatchObject({ text: "I'll search for the latest rover news.", finish: 'pause', status: 'complete' });
    expect(whole).toMatchObject({ text: 'Perseverance is exploring the Jezero crater rim and has cached another sample.', finish: 'stop' });
    const sent = requests()[1]!.body.messages;
    expect(sent.at(-1)).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: "I'll search for the latest rover news." },
        { type: 'server_tool_use', id: 'srvtoolu_014hJH82Qum7Td6UV8gDXThB', name: 'web_search', input: { query: 'Perseverance rover news' } },
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_014hJH82Qum7Td6UV8gDXThB',
          content: [
            {
              type: 'web_search_result',
              title: 'Perseverance Rover - NASA Science',
              url: 'https://science.nasa.gov/mission/mars-2020-perseverance/',
              encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1ZGItOTk2Yy0y',
              page_age: '2 days ago',
            },
          ],
        },
        { type: 'server_tool_use', id: 'srvtoolu_01Bq8cDx4Ke3aHjQnR6uTvWz', name: 'web_search', input: { query: 'Perseverance sample cache 2026' } },
      ],
    });
    // The next request keeps the server-tool blocks of both halves, not just their text.
    provider.enqueue({ kind: 'reply', text: 'Yes.' });
    seen = provider.requests.length;
    const next = await cli(['chat', '--conversation', run.json().conversationId, '-m', 'and the helicopter?']);
    expect(next.code, next.stderr).toBe(0);
    const replayed = requests()[0]!.body.messages.find((m: any) => m.role === 'assistant');
    expect(replayed.content.map((b: any) => b.type)).toEqual(['text', 'server_tool_use', 'web_search_tool_result', 'server_tool_use', 'web_search_tool_result', 'text']);
  });
});

describe('a reasoning model added without the reasoning switch', { timeout: 240_000 }, () => {
  it('a known family by name: o4-mini gets the switch when added, and its first request is right', async () => {
    const added = await must(['models', 'add', 'o4', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'o4-mini', '--max-tokens', '400']);
    expect(added.stdout).toContain('reasoning: on (o4-mini is a known reasoning model');
    provider.enqueue({ kind: 'reply', text: 'Right away.' });
    const run = await chat('o4', 'hi');
    expect(run.code, run.stderr).toBe(0);
    expect(requests()).toHaveLength(1);
    expect(requests()[0]!.body).toMatchObject({ max_completion_tokens: 400 });
    expect(requests()[0]!.body).not.toHaveProperty('max_tokens');
  });

  it('a name no one knows: each parameter the provider rejects by name is dropped (or replaced) once, and remembered', async () => {
    await must(['models', 'add', 'deploy', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'prod-reasoner', '--max-tokens', '500', '--temperature', '0.7']);
    replays('openai-unsupported-max-tokens-400', 'openai-unsupported-temperature-400');
    provider.enqueue({ kind: 'reply', text: 'Fine.' });
    const run = await chat('deploy', 'hi');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Fine.\n');
    const sent = requests().map((r) => r.body);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatchObject({ max_tokens: 500, temperature: 0.7 });
    expect(sent[1]).toMatchObject({ max_completion_tokens: 500, temperature: 0.7 });
    expect(sent[1]).not.toHaveProperty('max_tokens');
    expect(sent[2]).toMatchObject({ max_completion_tokens: 500 });
    expect(sent[2]).not.toHaveProperty('temperature');
    expect(run.stderr).toContain('prod-reasoner does not take max_tokens');
    const entry = (await must(['models', 'list', '--json'])).json().models.find((m: any) => m.id === 'deploy');
    expect(entry.rejectedParams).toEqual(['max_tokens', 'temperature']);
    // Remembered: the next request is right the first time.
    provider.enqueue({ kind: 'reply', text: 'Again.' });
    seen = provider.requests.length;
    expect((await chat('deploy', 'again')).code).toBe(0);
    expect(requests()).toHaveLength(1);
    expect(requests()[0]!.body).toMatchObject({ max_completion_tokens: 500 });
    expect(requests()[0]!.body).not.toHaveProperty('temperature');
  });
});

describe('chatos models against providers’ habits', { timeout: 120_000 }, () => {
  it("Together's bare-array model list lists its models", async () => {
    const listed = await cli(['models', 'available', 'local']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe('meta-llama/Llama-3.3-70B-Instruct-Turbo\nQwen/Qwen2.5-7B-Instruct-Turbo\ntogethercomputer/m2-bert-80M-32k-retrieval\n');
  });

  it("a model list behind a proxy whose upstream is down: the proxy's page named with its status, never a bare status", async () => {
    const proxied = await startProviderServer({ modelList: 'nginx-502-bad-gateway' });
    try {
      await must(['models', 'add', 'proxied', '--api', 'openai', '--base-url', proxied.openaiUrl, '--model', 'some-model']);
      const listed = await cli(['models', 'available', 'proxied']);
      expect(listed.code).toBe(1);
      expect(listed.stderr).toContain('HTTP 502 with an HTML page ("502 Bad Gateway"), not an API error');
      expect(listed.stderr).not.toContain('<html>');
    } finally {
      await proxied.close();
    }
  });

  it('the kind is guessed from known embedding families only, said when added, and what the user sets is kept', async () => {
    const embedded = await must(['models', 'add', 'story', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'llama-3-storyteller-embedded']);
    expect(embedded.stdout).toContain('kind: chat (guessed from the model name; --kind embedding if it is not)');
    const vectors = await must(['models', 'add', 'vec', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'nomic-embed-text:latest']);
    expect(vectors.stdout).toContain('kind: embedding (guessed from the model name; --kind chat if it is not)');
    const forced = await must(['models', 'add', 'forced', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'text-embedding-3-small', '--kind', 'chat']);
    expect(forced.stdout).not.toContain('guessed');
    const listed = (await must(['models', 'list', '--json'])).json().models;
    expect(Object.fromEntries(listed.map((m: any) => [m.id, m.kind]))).toMatchObject({ story: 'chat', vec: 'embedding', forced: 'chat' });
    // The entry named "…-embedded" answers in a chat: it was never taken for an embedding model.
    provider.enqueue({ kind: 'reply', text: 'Once upon a time.' });
    const told = await chat('story', 'a story');
    expect(told.code, told.stderr).toBe(0);
    expect(told.stdout).toBe('Once upon a time.\n');
  });
});

describe('token counts for summarizing before the context window', { timeout: 240_000 }, () => {
  const summaryAsked = (body: any) => body.messages[0].role === 'system' && /faithful, compact summaries/.test(body.messages[0].content);

  it('a long Chinese conversation is counted by its script (÷ 4 under-counted it threefold): summarized before the window is reached', async () => {
    await must(['models', 'add', 'qwen', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'qwen-plus', '--context-window', '1000']);
    provider.enqueue({ kind: 'reply', text: '好的，我明白了。' });
    const first = await chat('qwen', '人工智能正在改变我们的生活方式。'.repeat(55), '--json');
    expect(first.code, first.stderr).toBe(0);
    provider.enqueue({ kind: 'reply', text: '摘要：用户谈了人工智能。' }, { kind: 'reply', text: '好。' });
    seen = provider.requests.length;
    const second = await cli(['chat', '--conversation', first.json().conversationId, '-m', '请继续。', '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(requests().map((r) => summaryAsked(r.body))).toEqual([true, false]);
    expect(second.json().messages.some((m: any) => m.role === 'summary')).toBe(true);
  });

  it("the provider's own count wins where it reported one", async () => {
    await must(['models', 'add', 'counted', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'local-model', '--context-window', '1000']);
    provider.enqueue({ kind: 'reply', text: 'Noted.', usage: { input: 950, output: 4 } });
    const first = await chat('counted', 'hello', '--json');
    provider.enqueue({ kind: 'reply', text: 'Notes: a greeting.' }, { kind: 'reply', text: 'Hi again.' });
    seen = provider.requests.length;
    const second = await cli(['chat', '--conversation', first.json().conversationId, '-m', 'and now?', '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(requests().map((r) => summaryAsked(r.body))).toEqual([true, false]);
  });
});
