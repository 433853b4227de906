import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/** Node has no mkfifo: the system's. */
const mkfifo = (file: string) => execFileSync('mkfifo', [file]);
const manifest = (id: string, extra: object = {}) => ({ manifestVersion: 1, id, name: id, version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ...extra }] });

describe('non-regular files in plugin folders', () => {
  it('chatos apps exits at once with a problem on each plugin holding a FIFO it would read, and lists the others', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'a-fifo-manifest'));
    mkfifo(path.join(root, 'a-fifo-manifest', 'plugin.json'));
    const prompt = writePlugin(root, 'b-fifo-prompt', manifest('fifo.prompt', { ai: { mcpPrompt: { zh: 'zh.md', en: 'en.md' } } }), { 'index.mjs': '', 'en.md': 'en' });
    mkfifo(path.join(prompt, 'zh.md'));
    const config = writePlugin(root, 'c-fifo-config', manifest('fifo.config', { ai: { config: 'ai.yaml' } }), { 'index.mjs': '' });
    mkfifo(path.join(config, 'ai.yaml'));
    writePlugin(root, 'd-good', manifest('good'), { 'index.mjs': '' });

    // A hang would be killed here; a prompt answer is far quicker.
    const run = await runCli(['apps', '--json', '--plugins', root, '--home', tempDir()], { timeoutMs: 60_000 });
    // Exit 1: there are problems to fix; the listing is printed all the same.
    expect(run.code, `stderr: ${run.stderr}`).toBe(1);
    const { plugins } = run.json();
    const byDir = (folder: string) => plugins.find((p: { dir: string }) => p.dir === path.join(root, folder));
    expect(byDir('a-fifo-manifest')).toMatchObject({ status: 'invalid', problems: [{ code: 'FILE_NOT_REGULAR', path: '' }] });
    expect(byDir('a-fifo-manifest').problems[0].message).toContain('is a FIFO (named pipe), not a regular file');
    // Invalid for the manifest, and blocked for trust: a FIFO in the folder cannot be pinned (read by neither).
    expect(byDir('b-fifo-prompt')).toMatchObject({
      status: 'invalid',
      problems: [
        { code: 'PATH_NOT_FILE', path: 'apps[0].ai.mcpPrompt.zh' },
        { code: 'PLUGIN_SPECIAL_FILE', file: path.join(prompt, 'zh.md') },
      ],
    });
    expect(byDir('b-fifo-prompt').problems[0].message).toContain('FIFO');
    expect(byDir('c-fifo-config')).toMatchObject({
      status: 'invalid',
      problems: [
        { code: 'PATH_NOT_FILE', path: 'apps[0].ai.config' },
        { code: 'PLUGIN_SPECIAL_FILE', file: path.join(config, 'ai.yaml') },
      ],
    });
    expect(byDir('d-good')).toMatchObject({ status: 'loaded' });
  }, 300_000);

  it('a FIFO named mcp.yaml is a problem of that file, and the rest of the host works', async () => {
    const home = tempDir();
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    mkfifo(path.join(home, 'chatos', 'mcp.yaml'));
    const run = await runCli(['apps', '--json', '--home', home], { timeoutMs: 60_000 });
    expect(run.code, `stderr: ${run.stderr}`).toBe(0);
    const tools = await runCli(['tools', '--app', 'chatos', '--json', '--home', home], { timeoutMs: 60_000 });
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.json().problems).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'MCP_CONFIG_UNREADABLE', file: path.join(home, 'chatos', 'mcp.yaml') })]));
  }, 300_000);

  it('a FIFO named dev-links.json or plugin-roots.json is a problem of that file: no command hangs on it', async () => {
    const home = tempDir();
    const hostDir = path.join(home, 'chatos');
    fs.mkdirSync(hostDir, { recursive: true });
    mkfifo(path.join(hostDir, 'dev-links.json'));
    mkfifo(path.join(hostDir, 'plugin-roots.json'));

    // Every process reads both lists at start: a hang would be killed here (code null).
    const apps = await runCli(['apps', '--json', '--home', home], { timeoutMs: 60_000 });
    expect(apps.code, `stderr: ${apps.stderr}`).toBe(0);

    const roots = await runCli(['roots', 'list', '--json', '--home', home], { timeoutMs: 60_000 });
    expect(roots.code, `stderr: ${roots.stderr}`).toBe(0);
    expect(roots.json().problems).toEqual([expect.objectContaining({ code: 'PLUGIN_ROOTS_INVALID', file: path.join(hostDir, 'plugin-roots.json'), message: expect.stringContaining('FIFO') })]);

    const links = await runCli(['dev', 'list', '--json', '--home', home], { timeoutMs: 60_000 });
    expect(links.code, `stderr: ${links.stderr}`).toBe(0);
    expect(links.json()).toEqual({ links: [], problems: [expect.objectContaining({ file: path.join(hostDir, 'dev-links.json'), message: expect.stringContaining('FIFO') })] });

    // Linking writes the list: refused with the file named, nothing replaced.
    const plugin = writePlugin(tempDir(), 'linked', manifest('fifo.linked'), { 'index.mjs': '' });
    const link = await runCli(['dev', plugin, '--home', home], { timeoutMs: 60_000 });
    expect(link.code, `stdout: ${link.stdout}`).toBe(1);
    expect(link.stderr).toContain(path.join(hostDir, 'dev-links.json'));
    expect(link.stderr).toContain('FIFO');
    expect(fs.statSync(path.join(hostDir, 'dev-links.json')).isFIFO()).toBe(true);
  }, 300_000);

  it('a FIFO in the run folder where a pid file of a dead host would be does not hang the start that reaps orphans', async () => {
    const home = tempDir();
    const runDir = path.join(home, 'chatos', 'run');
    fs.mkdirSync(runDir, { recursive: true });
    // A pid no process has: its "host" is gone, so the start reads the file to end what it left running.
    mkfifo(path.join(runDir, 'mcp-4194000.json'));
    const tools = await runCli(['tools', '--app', 'chatos', '--json', '--home', home], { timeoutMs: 60_000 });
    expect(tools.code, `stderr: ${tools.stderr}`).toBe(0);
    // Nothing to reap in it; it is cleared away like a dead host's file.
    expect(fs.existsSync(path.join(runDir, 'mcp-4194000.json'))).toBe(false);
  }, 300_000);
});
