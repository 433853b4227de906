import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../../src/core/host.js';
import { caller, GATEWAY_SERVER, isAlive, pidOf, startTestHost, trustPlugin, waitUntil } from '../../helpers/gatewayHost.js';
import { writePlugin } from '../../helpers/plugins.js';
import { tempDir } from '../../helpers/tempDir.js';

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

const PLUGIN = 'com.example.watched';
const SERVER_ID = `${PLUGIN}::${PLUGIN}.main`;
const PID_TOOL = 'mcp_com_example_watched_main_pid';

/**
 * A plugin whose server notes every start (its argv and one env value) in a
 * file outside the plugin, then runs the gateway fixture: the file says
 * which definition ever started, whatever the host reports.
 */
function writeWatchedPlugin(root: string, marker: string, mcp: Record<string, unknown> = {}): string {
  const server = `import * as fs from 'node:fs';\nfs.appendFileSync(${JSON.stringify(marker)}, JSON.stringify({ entry: process.argv[1].split(/[\\\\/]/).pop(), argv: process.argv.slice(2), flavour: process.env.FLAVOUR ?? null }) + '\\n');\nawait import(${JSON.stringify(GATEWAY_SERVER)});\n`;
  return writePlugin(
    root,
    'watched',
    { manifestVersion: 1, id: PLUGIN, name: 'Watched', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', allowMain: true, ...mcp } } }] },
    { 'index.mjs': 'export function mount() {}\n', 'server.mjs': server, 'server2.mjs': server },
  );
}

const startsIn = (marker: string) =>
  fs.existsSync(marker)
    ? fs
        .readFileSync(marker, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { entry: string; argv: string[]; flavour: string | null })
    : [];

describe('hot reload of a trusted plugin whose plugin.json is edited (issue 13 item 1)', () => {
  // Each edit changes what would run: an argument, the environment, the entry.
  const edits: [string, Record<string, unknown>][] = [
    ['a new argument', { args: ['--evil'] }],
    ['a new environment variable', { env: { FLAVOUR: 'evil' } }],
    ['a new entry', { entry: 'server2.mjs' }],
  ];

  it.each(edits)('never starts the edited definition (%s): its calls are refused as changed, and the old server is stopped', async (_what, edit) => {
    const marker = path.join(tempDir('chatos-marker-'), 'starts.jsonl');
    const { host, pluginRoot } = await startTestHost(({ pluginRoot }) => void writeWatchedPlugin(pluginRoot, marker));
    trustPlugin(host, PLUGIN);
    stops.push(host.watch({ debounceMs: 50, pollMs: 200 }));

    const first = pidOf((await host.gateway.callTool(caller('c1'), PID_TOOL, {})).result);
    expect(startsIn(marker)).toEqual([{ entry: 'server.mjs', argv: [], flavour: null }]);

    const reloaded = new Promise<HostEvent>((resolve) => {
      const off = host.onEvent((event) => {
        if (event.kind === 'mcp-reloaded' && event.report.changed.includes(SERVER_ID)) {
          off();
          resolve(event);
        }
      });
    });
    const manifestFile = path.join(pluginRoot, 'watched', 'plugin.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    Object.assign(manifest.apps[0].ai.mcp, edit);
    fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
    const event = (await reloaded) as Extract<HostEvent, { kind: 'mcp-reloaded' }>;
    // The reload's probe is a start like any other: the edited definition did not run.
    expect(startsIn(marker)).toEqual([{ entry: 'server.mjs', argv: [], flavour: null }]);
    expect(event.report.problems).toContainEqual(expect.objectContaining({ code: 'PLUGIN_CHANGED', file: SERVER_ID }));

    // The old instance belonged to content the user no longer trusts: it is stopped.
    await waitUntil(() => !isAlive(first), `pid ${first} (the trusted definition) to be stopped`);
    await expect(host.gateway.callTool(caller('c1'), PID_TOOL, {})).rejects.toThrow(/changed since you trusted it/);
    await expect(host.gateway.callTool(caller('c2'), PID_TOOL, {})).rejects.toThrow(/changed since you trusted it/);
    // Only the trusted definition ever started: not the reload's probe, not a call's restart.
    expect(startsIn(marker)).toEqual([{ entry: 'server.mjs', argv: [], flavour: null }]);

    // Trusting the new content lets it run.
    trustPlugin(host, PLUGIN);
    expect(pidOf((await host.gateway.callTool(caller('c1'), PID_TOOL, {})).result)).not.toBe(first);
    expect(startsIn(marker)).toHaveLength(2);
  });
});
