import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startHttpEverythingForFile } from '../helpers/everythingHttp.js';
import { EVERYTHING_SERVER, GATEWAY_SERVER, writeMcpYaml } from '../helpers/gatewayHost.js';
import { writePlugin } from '../helpers/plugins.js';
import { runCli, type CliRun } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * `chatos mcp resources|read|prompts|prompt` against the MCP project's
 * reference server, through the built CLI: what a server offers, read and
 * got through the host's checked path as the caller (`--app` or `--agent`,
 * as `chatos call`), binary content only to a file, and every refusal named
 * with its fix.
 *
 * The first test runs the server over stdio, started and stopped by each
 * command as a user's mcp.yaml would; the others reach one real
 * server-everything over streamable HTTP, started once for the file: over
 * stdio each of their ~40 commands started a server process of its own
 * (~2.5 s each on a busy 2-core machine), which was most of the file's time
 * and none of what these tests are about.
 */

const SERVER = 'chatos::everything';
const FEATURES_DOC = 'demo://resource/static/document/features.md';
const BLOB = 'demo://resource/dynamic/blob/3';

let port: number;
beforeAll(async () => {
  port = await startHttpEverythingForFile();
});

function world(transport: 'http' | 'stdio' = 'http') {
  const home = tempDir();
  // A second server, for an agent that selects it and not everything.
  writeMcpYaml(home, {
    everything: transport === 'stdio' ? { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } : { transport: 'streamable_http', url: `http://127.0.0.1:${port}/mcp` },
    elsewhere: { transport: 'stdio', command: process.execPath, args: [GATEWAY_SERVER] },
  });
  const cli = (...args: string[]) => runCli([...args, '--home', home]);
  return { home, cli };
}

/** An agent whose selection is `mcpServerIds` of the host's own app. */
async function createAgent(cli: (...args: string[]) => Promise<CliRun>, id: string, mcpServerIds: string[]): Promise<void> {
  const file = path.join(tempDir(), `${id}.json`);
  fs.writeFileSync(file, JSON.stringify({ id, name: id, uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds }] }));
  const created = await cli('agents', 'create', '--file', file);
  expect(created.code, created.stderr).toBe(0);
}

describe('chatos mcp resources and read', { timeout: 180_000 }, () => {
  it('lists the resources and templates, as a table and as JSON (the server over stdio, started by each command)', async () => {
    const { cli } = world('stdio');
    const listed = await cli('mcp', 'resources', SERVER, '--app', 'chatos');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^  ${FEATURES_DOC.replace(/[.]/g, '\\.')} +features\\.md +text/markdown$`, 'm'));
    expect(listed.stdout).toMatch(/^ {2}demo:\/\/resource\/dynamic\/blob\/\{resourceId\} +Dynamic Blob Resource$/m);
    expect(listed.stdout).toContain(`read one: chatos mcp read ${SERVER} URI --app chatos`);

    const json = await cli('mcp', 'resources', SERVER, '--app', 'chatos', '--json');
    expect(json.code, json.stderr).toBe(0);
    const listing = json.json<{ serverId: string; resources: { uri: string; mimeType?: string }[]; templates: { uriTemplate: string; arguments: string[] }[] }>();
    expect(listing.serverId).toBe(SERVER);
    expect(listing.resources).toContainEqual(expect.objectContaining({ uri: FEATURES_DOC, mimeType: 'text/markdown' }));
    expect(listing.templates).toContainEqual(expect.objectContaining({ uriTemplate: 'demo://resource/dynamic/text/{resourceId}', arguments: ['resourceId'] }));
  });

  it('reads a template with --fill for its parts; a missing or unsafe value is bad usage, naming it', async () => {
    const { cli } = world();
    const template = 'demo://resource/dynamic/text/{resourceId}';
    const filled = await cli('mcp', 'read', SERVER, template, '--fill', 'resourceId=7', '--app', 'chatos', '--json');
    expect(filled.code, filled.stderr).toBe(0);
    expect(filled.json<{ contents: { uri: string; text?: string }[] }>().contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/7', text: expect.stringContaining('7') });

    const missing = await cli('mcp', 'read', SERVER, template, '--app', 'chatos');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot fill ${template}: "resourceId" has no value: fill it in (give each part as --fill NAME=VALUE)`);
    // A value is one path segment: its slashes are encoded, so it cannot climb out of the template's path.
    const climbing = await cli('mcp', 'read', SERVER, template, '--fill', 'resourceId=../../etc', '--app', 'chatos', '--json');
    expect(climbing.stdout + climbing.stderr).toContain('dynamic/text/..%2F..%2Fetc');
    const twice = await cli('mcp', 'read', SERVER, template, '--fill', 'resourceId=1', '--fill', 'resourceId=2', '--app', 'chatos');
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--fill resourceId is given twice');
    const notTemplate = await cli('mcp', 'read', SERVER, FEATURES_DOC, '--fill', 'a=1', '--app', 'chatos');
    expect(notTemplate.code).toBe(2);
    expect(notTemplate.stderr).toContain(`--fill is for a template uri, and ${FEATURES_DOC} has no {…} part`);
  });

  it('prints a text resource; a binary one goes to --out only, never to stdout, and an existing file is not written over', async () => {
    const { cli } = world();
    const text = await cli('mcp', 'read', SERVER, FEATURES_DOC, '--app', 'chatos');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('# Everything Server - Features');
    expect(text.stdout).toContain('get-resource-links');

    const refused = await cli('mcp', 'read', SERVER, BLOB, '--app', 'chatos');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`error: ${BLOB} is binary (text/plain, `);
    expect(refused.stderr).toContain(`fix: write it to a file: chatos mcp read ${SERVER} ${BLOB} --out FILE --app chatos`);

    const out = path.join(tempDir(), 'blob.bin');
    const written = await cli('mcp', 'read', SERVER, BLOB, '--out', out, '--app', 'chatos');
    expect(written.code, written.stderr).toBe(0);
    // The file holds the decoded bytes, not the base64 the server sent.
    const bytes = fs.readFileSync(out);
    expect(bytes.toString('utf8')).toMatch(/^Resource 3: This is a base64 blob/);
    expect(written.stdout).toBe(`wrote ${bytes.length} bytes (text/plain) of ${BLOB} to ${out}\n`);

    const again = await cli('mcp', 'read', SERVER, BLOB, '--out', out, '--app', 'chatos');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${out} already exists; nothing was written to it`);
    expect(fs.readFileSync(out)).toEqual(bytes);

    // A link (even one to nowhere) is not followed and a FIFO is not opened: refused as existing, nothing written, nothing waits.
    const target = path.join(tempDir(), 'where-the-link-points.bin');
    const link = path.join(path.dirname(out), 'link.bin');
    fs.symlinkSync(target, link);
    const fifo = path.join(path.dirname(out), 'fifo.bin');
    execFileSync('mkfifo', [fifo]);
    for (const file of [link, fifo]) {
      const refusedFile = await cli('mcp', 'read', SERVER, BLOB, '--out', file, '--app', 'chatos');
      expect(refusedFile.code).toBe(1);
      expect(refusedFile.stderr).toContain(`${file} already exists; nothing was written to it`);
    }
    expect(fs.existsSync(target)).toBe(false);

    // JSON carries the blob as base64 text, which nothing on a terminal acts on.
    const json = await cli('mcp', 'read', SERVER, BLOB, '--app', 'chatos', '--json');
    expect(json.code, json.stderr).toBe(0);
    const blob = json.json<{ contents: { blob: string; mimeType: string }[] }>().contents[0]!;
    expect(Buffer.from(blob.blob, 'base64').toString('utf8')).toMatch(/^Resource 3: This is a base64 blob/);
  });

  it('names an unknown server, an unknown uri and a missing caller, with the fix', async () => {
    const { cli } = world();
    const typo = await cli('mcp', 'resources', 'chatos::everythin', '--app', 'chatos');
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(`error: no MCP server "chatos::everythin"; did you mean "${SERVER}"?`);
    expect(typo.stderr).toContain('fix: see every server');

    const nowhere = await cli('mcp', 'read', SERVER, 'demo://nowhere/x', '--app', 'chatos');
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain(`error: server "${SERVER}" did not read demo://nowhere/x: Resource demo://nowhere/x not found`);
    expect(nowhere.stderr).toContain(`fix: see what it offers: chatos mcp resources ${SERVER} --app chatos`);

    const nobody = await cli('mcp', 'read', SERVER, FEATURES_DOC);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain('say who is calling: --agent ID or --app APP');
  });

  it('reads as an agent with its grants: one that selected the server reads, one that did not is refused and it is audited', async () => {
    const { cli } = world();
    await createAgent(cli, 'reader', [SERVER]);
    await createAgent(cli, 'stranger', ['chatos::elsewhere']);
    const read = await cli('mcp', 'read', SERVER, FEATURES_DOC, '--agent', 'reader');
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain('# Everything Server - Features');

    const refused = await cli('mcp', 'read', SERVER, FEATURES_DOC, '--agent', 'stranger');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`error: server "${SERVER}" is not among the servers selected for this caller`);
    expect(refused.stderr).toContain(`fix: add "${SERVER}" to the servers of agent stranger`);
    const audit = (await cli('audit', '--tool', 'resources/read', '--json')).json<{ records: { agentId?: string; decision: string; outcome: string }[] }>().records;
    expect(audit.map((r) => `${r.agentId} ${r.decision}/${r.outcome}`)).toEqual(['stranger refused/refused', 'reader auto/ok']);
  });

  it("an untrusted plugin's server stays refused by the run gate: nothing is started", async () => {
    const home = tempDir();
    const extra = tempDir('chatos-extra-');
    const plugin = 'com.example.untrusted';
    writePlugin(
      extra,
      'untrusted',
      { manifestVersion: 1, id: plugin, name: 'Untrusted', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', allowMain: true } } }] },
      { 'index.mjs': 'export function mount() {}\n', 'server.mjs': `import ${JSON.stringify(GATEWAY_SERVER)};\n` },
    );
    const cli = (...args: string[]) => runCli([...args, '--home', home, '--plugins', extra]);
    for (const command of [
      ['resources', `${plugin}::${plugin}.main`],
      ['prompts', `${plugin}::${plugin}.main`],
    ]) {
      const refused = await cli('mcp', ...command, '--app', plugin);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`plugin ${plugin} is not trusted`);
      expect(refused.stderr).toContain(`chatos trust ${plugin}`);
    }
  });
});

describe('chatos mcp prompts and prompt', { timeout: 180_000 }, () => {
  it('lists the prompts with their arguments, the required ones marked', async () => {
    const { cli } = world();
    const listed = await cli('mcp', 'prompts', SERVER, '--app', 'chatos');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(
      '  args-prompt  Arguments Prompt: A prompt with two arguments, one required and one optional\n      --arg city=…  (required)  Name of the city\n      --arg state=…\n',
    );
    expect(listed.stdout).toContain('  simple-prompt  Simple Prompt: A prompt with no arguments\n');
    const json = (await cli('mcp', 'prompts', SERVER, '--app', 'chatos', '--json')).json<{ serverId: string; prompts: { name: string; arguments: { name: string; required: boolean }[] }[] }>();
    expect(json.serverId).toBe(SERVER);
    expect(json.prompts.find((p) => p.name === 'args-prompt')?.arguments).toEqual([
      { name: 'city', description: 'Name of the city', required: true },
      { name: 'state', required: false },
    ]);
  });

  it('gets a prompt with its arguments and prints its messages with their roles; a text file sent as a blob is printed as text', async () => {
    const { cli } = world();
    const got = await cli('mcp', 'prompt', SERVER, 'args-prompt', '--arg', 'city=Lisbon', '--arg', 'state=Estremadura', '--app', 'chatos');
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toBe("[user]\nWhat's weather in Lisbon, Estremadura?\n");

    const embedded = await cli('mcp', 'prompt', SERVER, 'resource-prompt', '--arg', 'resourceType=Text', '--arg', 'resourceId=2', '--app', 'chatos');
    expect(embedded.code, embedded.stderr).toBe(0);
    expect(embedded.stdout).toContain('[user]\nResource demo://resource/dynamic/text/2 (text/plain):\nResource 2: This is a plaintext resource');

    // server-everything's "Blob" resources are text/plain sent as base64: text to the host (docs/using/slash-commands.md), never base64.
    const blob = await cli('mcp', 'prompt', SERVER, 'resource-prompt', '--arg', 'resourceType=Blob', '--arg', 'resourceId=2', '--app', 'chatos');
    expect(blob.code, blob.stderr).toBe(0);
    expect(blob.stdout).toMatch(/^\[user\]\n[^\n]*\n\[user\]\nResource demo:\/\/resource\/dynamic\/blob\/2 \(text\/plain\):\n\S/);
    expect(blob.stderr).not.toContain('is not sent');

    const json = await cli('mcp', 'prompt', SERVER, 'args-prompt', '--arg', 'city=Porto', '--app', 'chatos', '--json');
    expect(json.json()).toMatchObject({ serverId: SERVER, name: 'args-prompt', messages: [{ role: 'user', content: [{ type: 'text', text: "What's weather in Porto?" }] }] });
  });

  it('refuses an unknown prompt, a missing or unknown argument, and a caller without the server', async () => {
    const { cli } = world();
    const typo = await cli('mcp', 'prompt', SERVER, 'args-promt', '--app', 'chatos');
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(`error: server "${SERVER}" has no prompt "args-promt"; did you mean "args-prompt"?`);
    expect(typo.stderr).toContain(`fix: see its prompts: chatos mcp prompts ${SERVER} --app chatos`);

    const missing = await cli('mcp', 'prompt', SERVER, 'args-prompt', '--app', 'chatos');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('prompt "args-prompt" needs --arg city=… (its arguments: city, state)');
    const unknown = await cli('mcp', 'prompt', SERVER, 'args-prompt', '--arg', 'city=Lisbon', '--arg', 'country=PT', '--app', 'chatos');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('prompt "args-prompt" has no argument "country"');

    const outsider = await cli('mcp', 'prompt', SERVER, 'args-prompt', '--arg', 'city=Lisbon', '--app', 'com.example.other');
    expect(outsider.code).toBe(1);
    expect(outsider.stdout).toBe('');
    expect(outsider.stderr).toContain(`fix: chatos grant com.example.other ${SERVER}`);
    await createAgent(cli, 'stranger', ['chatos::elsewhere']);
    const stranger = await cli('mcp', 'prompts', SERVER, '--agent', 'stranger');
    expect(stranger.code).toBe(1);
    expect(stranger.stdout).toBe('');
    expect(stranger.stderr).toContain(`is not among the servers selected for this caller`);
  });
});
