import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';
import { GatewayError } from '../../../src/core/tools/toolGateway.js';
import { EVERYTHING_SERVER, caller, startTestHost, writeGatewayPlugin, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { sdkServerSource } from '../../helpers/sdkServer.js';
import { tempDir } from '../../helpers/tempDir.js';

/**
 * MCP prompts through the host's one path (host.tools.prompts), against the
 * MCP project's reference server over real stdio: its prompts listed with
 * their arguments, got with arguments, their arguments completed; refused
 * for a server the caller may not use; re-listed when the server says its
 * list changed (a small SDK server of our own).
 */

const SERVER = 'chatos::everything';

async function everythingHost() {
  const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }));
  return host;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal, and it succeeded');
}

describe('MCP prompts with @modelcontextprotocol/server-everything', () => {
  it('lists its prompts with their arguments, required marked', async () => {
    const host = await everythingHost();
    const { prompts, problems } = await host.tools.prompts.list(caller('conv-l'));
    expect(problems).toEqual([]);
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']));
    expect(prompts.find((p) => p.name === 'args-prompt')).toEqual({
      serverId: SERVER,
      serverName: 'everything',
      name: 'args-prompt',
      title: 'Arguments Prompt',
      description: 'A prompt with two arguments, one required and one optional',
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false },
      ],
    });
  });

  it('gets a prompt with its arguments as messages, audited with the argument names only', async () => {
    const host = await everythingHost();
    const got = await host.tools.prompts.get(caller('conv-g'), SERVER, 'args-prompt', { city: 'Lisbon', state: 'Estremadura' });
    expect(got).toEqual({ serverId: SERVER, name: 'args-prompt', messages: [{ role: 'user', content: [{ type: 'text', text: "What's weather in Lisbon, Estremadura?" }] }], notes: [] });
    const row = host.audit.query({ tool: 'prompts/get' })[0];
    expect(row).toMatchObject({ serverId: SERVER, conversationId: 'conv-g', outcome: 'ok', reason: 'args-prompt' });
    expect(row!.args).toContain('"arguments":["city","state"]');
    expect(JSON.stringify(row)).not.toContain('Lisbon');
  });

  it('an embedded text resource becomes text naming its uri, a text/plain blob too', async () => {
    const host = await everythingHost();
    const text = await host.tools.prompts.get(caller('conv-r'), SERVER, 'resource-prompt', { resourceType: 'Text', resourceId: '2' });
    expect(text.messages).toHaveLength(2);
    expect(text.messages[1]!.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^Resource demo:\/\/resource\/dynamic\/text\/2 \(text\/plain\):\n/),
      resource: 'demo://resource/dynamic/text/2',
    });
    const blob = await host.tools.prompts.get(caller('conv-r'), SERVER, 'resource-prompt', { resourceType: 'Blob', resourceId: '1' });
    expect(blob.messages).toHaveLength(2);
    expect(blob.messages[1]!.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Resource demo:\/\/resource\/dynamic\/blob\/1 \(text\/plain\):\n\S/) });
    expect(blob.notes).toEqual([]);
  });

  it('completes an argument as the user types it, narrowed by the arguments filled so far', async () => {
    const host = await everythingHost();
    const who = caller('conv-c');
    expect(await host.tools.prompts.complete(who, SERVER, 'completable-prompt', { name: 'department', value: 'S' }, {})).toEqual({ values: ['Sales', 'Support'], hasMore: false });
    expect(await host.tools.prompts.complete(who, SERVER, 'completable-prompt', { name: 'name', value: '' }, { department: 'Engineering' })).toEqual({
      values: ['Alice', 'Bob', 'Charlie'],
      hasMore: false,
    });
    // An argument the prompt does not have gets no suggestions (the server is not asked).
    expect(await host.tools.prompts.complete(who, SERVER, 'completable-prompt', { name: 'nope', value: '' }, {})).toEqual({ values: [], hasMore: false });
  });

  it('refuses what does not fit: a missing required argument, an unknown one, an unknown prompt, an argument too long', async () => {
    const host = await everythingHost();
    const who = caller('conv-b');
    expect((await rejection(host.tools.prompts.get(who, SERVER, 'args-prompt', {}))).message).toContain('prompt "args-prompt" needs "city"');
    expect((await rejection(host.tools.prompts.get(who, SERVER, 'args-prompt', { city: 'x', zip: '1' }))).message).toContain('has no argument "zip"');
    expect((await rejection(host.tools.prompts.get(who, SERVER, 'no-such', {}))).message).toContain('has no prompt "no-such"');
    expect((await rejection(host.tools.prompts.get(who, SERVER, 'args-prompt', { city: 'x'.repeat(10_001) }))).message).toContain('at most 10,000 characters');
  });

  it("refuses a server that is not among the caller's, and lists none of its prompts", async () => {
    const host = await everythingHost();
    const other = caller('conv-n', { serverIds: ['chatos::other'] });
    const refused = await rejection(host.tools.prompts.get(other, SERVER, 'simple-prompt', {}));
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe('NOT_GRANTED');
    expect((await rejection(host.tools.prompts.complete(other, SERVER, 'completable-prompt', { name: 'department', value: '' }, {}))).message).toContain('not among the servers selected');
    expect((await host.tools.prompts.list(other)).prompts).toEqual([]);
    // One server's list, asked by name (the CLI's), is refused with the same rule; the caller's own is listed.
    expect(((await rejection(host.tools.prompts.listOf(other, SERVER))) as GatewayError).code).toBe('NOT_GRANTED');
    expect((await host.tools.prompts.listOf(caller('conv-n'), SERVER)).map((p) => p.name)).toContain('args-prompt');
  });
});

describe('MCP prompts of an untrusted plugin', () => {
  it('are never listed or got, and its server never starts', async () => {
    const PLUGIN = 'com.example.gw';
    const PLUGIN_SERVER = `${PLUGIN}::${PLUGIN}.main`;
    const { host } = await startTestHost(({ pluginRoot }) => writeGatewayPlugin(pluginRoot, PLUGIN, [{ appId: 'main', allowMain: true }]));
    const who = caller('conv-u');
    expect((await host.tools.prompts.list(who)).prompts).toEqual([]);
    const refused = await rejection(host.tools.prompts.get(who, PLUGIN_SERVER, 'anything', {}));
    expect((refused as GatewayError).code).toBe('NOT_RUNNABLE');
    expect(((await rejection(host.tools.prompts.listOf(who, PLUGIN_SERVER))) as GatewayError).code).toBe('NOT_RUNNABLE');
    expect(internalsOf(host).mcp.runtime.connections.anyRunning(PLUGIN_SERVER)).toBeUndefined();
  });
});

describe('notifications/prompts/list_changed', () => {
  it('re-lists the prompts without a reload', async () => {
    const dir = tempDir('chatos-prompting-');
    const file = path.join(dir, 'server.mjs');
    fs.writeFileSync(
      file,
      sdkServerSource(
        'prompting',
        `server.registerPrompt('first', { description: 'the first' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'one' } }] }));
server.registerTool('add_prompt', { description: 'adds a prompt' }, async () => {
  server.registerPrompt('second', { description: 'added later' }, () => ({ messages: [{ role: 'assistant', content: { type: 'text', text: 'two' } }] }));
  return { content: [{ type: 'text', text: 'added' }] };
});`,
      ),
    );
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { prompting: { transport: 'stdio', command: process.execPath, args: [file] } }));
    const who = caller('conv-p');
    expect((await host.tools.prompts.list(who)).prompts.map((p) => p.name)).toEqual(['first']);
    await host.tools.call(who, 'mcp_prompting_add_prompt', {});
    // The re-list follows the notification: wait for it, not for a time.
    const prompts = internalsOf(host).mcp.runtime.connections.ready(host.mcp.definition('chatos::prompting')!, 'conv-p')!.connection.prompts!;
    const changed = new Promise((resolve) => prompts.onListChanged(resolve));
    if ((prompts.current?.length ?? 0) < 2) await changed;
    expect((await host.tools.prompts.list(who)).prompts.map((p) => p.name)).toEqual(['first', 'second']);
    expect((await host.tools.prompts.get(who, 'chatos::prompting', 'second', {})).messages).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'two' }] }]);
  });
});
