import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatServerEntry } from '../helpers/chatWorld.js';
import { writeMcpYaml } from '../helpers/gatewayHost.js';
import { writePlugin } from '../helpers/plugins.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';

/**
 * `chatos chat` against recorded provider streams (test/fixtures/providerStreams)
 * replayed byte for byte over real HTTP: the built CLI, the real SDKs, the
 * real chat fixture server for the calls.
 */

let provider: ProviderServer;
let home: string;
const folders: string[] = [];
const cli = (args: string[]) => runCli([...args, '--home', home]);
async function must(args: string[]) {
  const run = await cli(args);
  expect(run.code, `chatos ${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run;
}

/**
 * One home for the file (each CLI run costs seconds on a loaded machine):
 * an agent on an OpenAI-compatible entry, with the chat fixture server
 * through a plugin app that exposes it; the other APIs are entries a
 * conversation switches to with --model.
 */
beforeAll(async () => {
  provider = await startProviderServer({ models: ['recorded-model', 'other-model'], shared: true });
  // Folders of the file's own (tempDir() is removed after each test).
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-cli-streams-'));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-cli-streams-plugins-'));
  folders.push(home, root);
  writeMcpYaml(home, { chat: chatServerEntry() });
  // The agent selects chatos::chat under an app that exposes it (docs/rules/names-and-exposure.md#exposure).
  writePlugin(
    root,
    'desk',
    { manifestVersion: 1, id: 'com.example.desk', name: 'Desk', version: '1.0.0', apps: [{ id: 'desk', name: 'Desk', entry: 'index.mjs', ai: { mcpServers: ['chat'] } }] },
    { 'index.mjs': 'export function mount() {}\n' },
  );
  await must(['roots', 'add', root]);
  await must(['trust', 'com.example.desk']);
  for (const [id, api, model, ...extra] of [
    ['local', 'openai', 'recorded-model'],
    ['other', 'openai', 'other-model'],
    ['resp', 'openai-responses', 'recorded-model'],
    ['anth', 'anthropic', 'recorded-model'],
    ['old-claude', 'anthropic', 'claude-sonnet-4-5'],
    ['vectors', 'openai', 'embed-24d', '--kind', 'embedding'],
  ] as const) {
    await must(['models', 'add', id, '--api', api, '--base-url', api === 'anthropic' ? provider.url : provider.openaiUrl, '--model', model, ...extra]);
  }
  const agentFile = path.join(root, 'agent.json');
  fs.writeFileSync(
    agentFile,
    JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'local', systemPrompt: 'Be brief.', uiApps: [{ pluginId: 'com.example.desk', appId: 'desk', mcp: true, mcpServerIds: ['chatos::chat'] }] }),
  );
  await must(['agents', 'create', '--file', agentFile]);
}, 300_000);

afterAll(async () => {
  await provider.close();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** The requests this test made (the server is the file's). */
let seen = 0;
beforeEach(() => void (seen = provider.requests.length));
const requests = () => provider.requests.slice(seen);

const assistants = (json: any) => json.messages.filter((m: any) => m.role === 'assistant');
const tools = (json: any) => json.messages.filter((m: any) => m.role === 'tool').map((m: any) => [m.callId, m.content[0].text]);
const replays = (...names: string[]) => provider.enqueue(...names.map((name) => ({ kind: 'fixture' as const, name })));
/** `chatos chat --agent helper` with this model entry, one message. */
const chat = (model: string, message: string, ...more: string[]) => cli(['chat', '--agent', 'helper', ...(model === 'local' ? [] : ['--model', model]), '-m', message, ...more]);

describe('chatos chat against recorded provider streams', { timeout: 240_000 }, () => {
  it('DeepSeek thinking: reasoning apart in --json, sent back with the tool call in the next request', async () => {
    replays('deepseek-thinking-tool-call', 'deepseek-thinking-answer');
    const run = await chat('local', 'weather in SF?', '--json');
    expect(run.code, run.stderr).toBe(0);
    const [call, answer] = assistants(run.json());
    expect(call).toMatchObject({
      text: '',
      reasoning: { text: 'The user asks about the weather in San Francisco. I should use the echo tool.', source: 'reasoning_content' },
      toolCalls: [{ id: 'call_00_IhCAliIHtM9gKpgfqbBV9873' }],
      stats: { reasoningTokens: 17 },
    });
    expect(answer).toMatchObject({ text: 'It is sunny in San Francisco.', finish: 'stop', reasoning: { text: 'The tool echoed San Francisco. I can answer.' } });
    const sent = requests()[1]!.body.messages.find((m: any) => m.role === 'assistant');
    expect(sent.reasoning_content).toBe('The user asks about the weather in San Francisco. I should use the echo tool.');
    // With --json the thinking is in the JSON only, not on stderr.
    expect(run.stderr).not.toContain('thinking:');
  });

  it('piped without --json: the answer alone on stdout, the thinking on stderr (plain, stderr is no terminal)', async () => {
    replays('ollama-deepseek-r1-think-tags');
    const run = await chat('local', 'hello');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Hello! How can I help you today?\n');
    expect(run.stderr).toContain('thinking: \nOkay, the user says hello. I should greet back warmly.\n');
    expect(run.stderr).not.toContain('\x1b[');
  });

  for (const [title, model, name, then, expected] of [
    [
      'OpenAI chat completions: two parallel calls',
      'local',
      'openai-chat-parallel-tools',
      undefined,
      [
        ['call_Qf3kZ8mWv1rT6nYp2LcX9dHa', 'San Francisco'],
        ['call_7bNw2xKp4sMq9vRe1TzJ5uLg', 'Tokyo'],
      ],
    ],
    [
      'Ollama 0.20: two calls, both index 0',
      'local',
      'ollama-parallel-calls-index-0',
      undefined,
      [
        ['call_u8bz4kd1', 'hello.py'],
        ['call_2lq7x0wm', 'world.py'],
      ],
    ],
    [
      'older Ollama: calls without an index',
      'local',
      'ollama-calls-without-index',
      undefined,
      [
        ['call_7p1vnl3a', 'Boston'],
        ['call_q0c4w9ye', 'Chicago'],
      ],
    ],
    ["Gemini's OpenAI endpoint: no index, finish stop", 'local', 'gemini-openai-tool-call', undefined, [['call_297140', '/app/skills/stage-design/SKILL.md']]],
    ['Qwen on DashScope: empty ids on later pieces', 'local', 'qwen-dashscope-thinking-tool-call', undefined, [['call_deb0063d315441b18b50d8', '北京']]],
    ['vLLM: id null on later pieces, reasoning field', 'local', 'vllm-reasoning-tool-call', undefined, [['chatcmpl-tool-9f149c74c42f265b', 'vllm']]],
    ['OpenAI Responses with reasoning', 'resp', 'openai-responses-reasoning-tool-call', 'openai-responses-answer', [['call_AB6AaRZ1FYZB2RwS6A5vbdqn', '12 + 7']]],
    ['Anthropic with thinking and a signature', 'anth', 'anthropic-thinking-tool-use', 'anthropic-answer', [['toolu_01T1x1fJ34qAmk2tNTrN7Up6', 'San Francisco, CA']]],
  ] as const) {
    it(`${title}: each call runs once, under its own id`, async () => {
      replays(name);
      provider.enqueue(then ? { kind: 'fixture', name: then } : { kind: 'reply', text: 'done' });
      const run = await chat(model, 'go', '--json');
      expect(run.code, run.stderr).toBe(0);
      expect(tools(run.json())).toEqual(expected);
      expect(requests()).toHaveLength(2);
    });
  }

  it('Mistral content parts: the thinking part apart, the text part as the answer', async () => {
    replays('mistral-magistral-content-parts');
    const run = await chat('local', '2+2', '--json');
    expect(assistants(run.json())[0]).toMatchObject({ text: '2 + 2 = 4', reasoning: { source: 'thinking-part' } });
  });

  it('billing: one request, exit 1, saying what to do (not "wait")', async () => {
    replays('openai-insufficient-quota-429');
    const run = await chat('local', 'x');
    expect(run.code).toBe(1);
    expect(requests()).toHaveLength(1);
    expect(run.stderr).toMatch(/error: .*refused for billing: the account has no credit left or its quota is used up \(You exceeded your current quota/);
    expect(run.stderr).toMatch(/fix: add credit or raise the limit in the provider's billing settings, or switch this conversation to another model; waiting does not help/);
  });

  it('a refusal is said as one; a cut answer says how to continue, and --continue does', async () => {
    replays('anthropic-refusal');
    const refused = await chat('anth', 'something bad');
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stderr).toContain("refused: This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy.");

    replays('openai-chat-length');
    const cut = await chat('local', 'how do I bake?', '--json');
    const { conversationId } = cut.json();
    expect(cut.stderr).toContain(`note: the answer was cut at the model's token limit; continue it: chatos chat --conversation ${conversationId} --continue`);
    provider.enqueue({ kind: 'reply', text: ' 180 °C.' });
    const continued = await cli(['chat', '--conversation', conversationId, '--continue', '--json']);
    expect(continued.code, continued.stderr).toBe(0);
    expect(assistants(continued.json())[0]).toMatchObject({ text: ' 180 °C.' });
    expect(requests().at(-1)!.body.messages.at(-1).content).toMatch(/^Your previous answer was cut off/);
  });

  it('--model switches the conversation: recorded, and the next request goes to that entry', async () => {
    provider.enqueue({ kind: 'reply', text: 'one' }, { kind: 'reply', text: 'two' });
    const { conversationId } = (await chat('local', 'one', '--json')).json();
    const second = await cli(['chat', '--conversation', conversationId, '--model', 'other', '-m', 'two', '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(requests().map((r) => r.body.model)).toEqual(['recorded-model', 'other-model']);
    expect(assistants(second.json())[0].modelId).toBe('other');
    expect((await cli(['conversations', 'show', conversationId, '--json'])).json().conversation.modelId).toBe('other');
  });

  it("the Anthropic SDK's console warning reaches the terminal only as the host's note", async () => {
    replays('anthropic-answer');
    const run = await chat('old-claude', 'hi');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("note: Anthropic's SDK says: The model 'claude-sonnet-4-5' is deprecated");
    expect(run.stderr.split('\n').filter((line) => /^(The model|Please migrate)/.test(line))).toEqual([]);
  });
});

describe('chatos models against a provider', { timeout: 120_000 }, () => {
  it('available lists the names the provider offers; test of an embedding entry reports its dimension', async () => {
    const listed = await cli(['models', 'available', 'local']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe('other-model\nrecorded-model\n');
    const tested = await cli(['models', 'test', 'vectors']);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/^ok: vectors \(embed-24d at .*\) embedded a text in \d+ ms: vectors of 24 numbers\n$/);
    expect(requests().at(-1)!.path).toBe('/v1/embeddings');
    expect((await cli(['models', 'list'])).stdout).toMatch(/vectors .*\(embedding\)/);
  });
});
