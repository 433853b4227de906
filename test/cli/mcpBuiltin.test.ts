import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliProcess } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * `chatos mcp builtin list|on|off NAME` (docs/reference/cli.md): the built-in
 * tools switched from a terminal, kept in mcp.yaml's `builtins:` block, and
 * answering with no uvx, npx or node on PATH (they run inside ChatOS).
 */
describe('chatos mcp builtin', () => {
  it('lists the three off on a fresh home, switches one on and off, and calls it with PATH emptied', async () => {
    const home = tempDir('chatos-builtin-cli-');
    const fresh = await runCli(['mcp', 'builtin', 'list', '--home', home, '--json']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.json().builtins.map((b: { name: string; enabled: boolean }) => `${b.name} ${b.enabled}`)).toEqual(['time false', 'fetch false', 'calculator false']);

    const on = await runCli(['mcp', 'builtin', 'on', 'calculator', '--home', home]);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toContain('calculator is on (chatos::calculator)');
    expect(fs.readFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'utf8')).toMatch(/builtins:\s+calculator:\s+enabled: true/);
    const servers = (await runCli(['registry', 'servers', '--home', home, '--json'])).json() as { servers: { id: string }[] } | { id: string }[];
    expect(JSON.stringify(servers)).toContain('chatos::calculator');

    const called = runCliProcess(['call', 'mcp_calculator_calculate', '--app', 'chatos', '--args', '{"expression":"0.1 + 0.2"}', '--home', home], { env: { PATH: '' } });
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain('0.3');
    const time = await runCli(['mcp', 'builtin', 'on', 'time', '--home', home]);
    expect(time.code, time.stderr).toBe(0);
    const now = runCliProcess(['call', 'mcp_time_get_current_time', '--app', 'chatos', '--args', '{"timezone":"Asia/Shanghai"}', '--home', home], { env: { PATH: '' } });
    expect(now.code, now.stderr).toBe(0);
    expect(now.stdout).toContain('+08:00');

    const off = await runCli(['mcp', 'builtin', 'off', 'calculator', '--home', home]);
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.stringify((await runCli(['registry', 'servers', '--home', home, '--json'])).json())).not.toContain('chatos::calculator');
    const gone = await runCli(['call', 'mcp_calculator_calculate', '--app', 'chatos', '--args', '{"expression":"1"}', '--home', home]);
    expect(gone.code).toBe(1);
  });

  it('switches fetch to allow private addresses, and refuses an unknown tool or a name one of your servers has', async () => {
    const home = tempDir('chatos-builtin-cli-');
    const fetch = await runCli(['mcp', 'builtin', 'on', 'fetch', '--allow-private-addresses', '--home', home, '--json']);
    expect(fetch.code, fetch.stderr).toBe(0);
    expect(fetch.json().builtin).toMatchObject({ name: 'fetch', enabled: true, allowPrivateAddresses: true });
    expect((await runCli(['mcp', 'builtin', 'list', '--home', home])).stdout).toMatch(/fetch +on +chatos::fetch, private addresses allowed/);

    const unknown = await runCli(['mcp', 'builtin', 'on', 'weather', '--home', home]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no built-in tool "weather"');
    expect(unknown.stderr).toContain('time, fetch, calculator');

    const added = await runCli(['mcp', 'add', 'time', '--command', 'uvx', '--arg', 'mcp-server-time', '--home', home]);
    expect(added.code, added.stderr).toBe(0);
    const taken = await runCli(['mcp', 'builtin', 'on', 'time', '--home', home]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('your server "time"');
    expect(taken.stderr).toContain('remove or rename server "time"');
  });
});
