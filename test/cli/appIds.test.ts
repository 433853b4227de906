import { afterEach, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/browser.js';
import { writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { sdkServerSource } from '../helpers/sdkServer.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * Issue 14, "Compatibility with the seeds and the original ChatOS": the
 * original accepted any app id, and normalize() (docs/rules/names-and-exposure.md#app-ids) derives names
 * from it; an id such as `Report.Viewer` made the whole plugin fail to load.
 * Such ids load, run and serve their page; only what cannot be a folder name
 * or is unsafe in a path is refused.
 */

const PLUGIN = 'com.example.reports';
const APP = 'Report.Viewer';
const PREFIX = 'mcp_com_example_reports_report_viewer';

const serves: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of serves.splice(0)) await serve.stop();
}, 300_000);

/** A real stdio server answering with the app id its calls carry in _meta. */
const serverSource = () =>
  sdkServerSource(
    'reports',
    "server.registerTool('whoami', { description: 'The app id of the caller context.' }, async (extra) => ({ content: [{ type: 'text', text: String(extra._meta?.chatos?.uiApp?.appId) }] }));",
  );

function reportsPlugin(root: string, appIds: string[]): string {
  return writePlugin(
    root,
    'reports',
    {
      manifestVersion: 1,
      id: PLUGIN,
      name: 'Reports',
      version: '1.0.0',
      apps: appIds.map((id) => ({ id, name: 'Viewer', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', allowMain: true }, mcpPrompt: { en: { content: 'Use the report tools.' } } } })),
    },
    { 'index.mjs': 'export function mount({ container }) { container.textContent = "reports"; }\n', 'server.mjs': serverSource() },
  );
}

describe('app ids as the original ChatOS accepted them', () => {
  it('Report.Viewer validates, derives its names through normalize(), registers, runs its server and serves its page', async () => {
    const root = tempDir();
    const home = tempDir();
    const dir = reportsPlugin(root, [APP]);

    const validated = await runCli(['validate', dir, '--json', '--home', home]);
    expect(validated.code, validated.stderr).toBe(0);
    const app = validated.json().apps[0];
    expect(app).toMatchObject({ appId: APP, serverName: `${PLUGIN}.${APP}`, promptNames: { zh: PREFIX, en: `${PREFIX}__en` } });

    expect((await runCli(['trust', PLUGIN, '--home', home, '--plugins', root])).code).toBe(0);
    const registry = (await runCli(['registry', 'servers', '--json', '--home', home, '--plugins', root])).json();
    expect(JSON.stringify(registry)).toContain(`${PLUGIN}::${PLUGIN}.${APP}`);

    const call = await runCli(['call', `${PREFIX}_whoami`, '--app', 'chatos', '--home', home, '--plugins', root], { timeoutMs: 60_000 });
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout.trim().split('\n')[0]).toBe(APP);

    const serve = await startServe(['--home', home, '--plugins', root]);
    serves.push(serve);
    const opened = await (
      await fetch(new URL('/api', serve.origin), {
        method: 'POST',
        headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'uiApps.open', params: { pluginId: PLUGIN, appId: APP } }),
      })
    ).json();
    expect(opened.ok, JSON.stringify(opened)).toBe(true);
    expect(opened.result.url).toContain(`/${encodeURIComponent(PLUGIN)}/${encodeURIComponent(APP)}/__shell`);
    const shell = await fetch(new URL(opened.result.url, serve.origin));
    expect(shell.status).toBe(200);
    expect(await shell.text()).toContain('index.mjs');
  }, 300_000);

  it('refuses what cannot be a folder name or is unsafe in a path, each at apps[0].id with a fix', async () => {
    const home = tempDir();
    const cases: [string, string][] = [
      ['reports/viewer', '"/"'],
      ['..', '".."'],
      ['a..b', '".."'],
      ['C:viewer', '":"'],
      ['viewer\u0007', 'U+0007'],
      [' viewer', 'space'],
      ['viewer.', 'end with "."'],
      ['', 'must not be empty'],
    ];
    for (const [id, says] of cases) {
      const run = await runCli(['validate', reportsPlugin(tempDir(), [id]), '--json', '--home', home]);
      expect(run.code, `${JSON.stringify(id)}: ${run.stderr}`).toBe(1);
      const problem = run.json().problems.find((p: { path: string }) => p.path === 'apps[0].id');
      expect(problem?.message, JSON.stringify(id)).toContain(says);
      expect(problem.hint, JSON.stringify(id)).toBeTruthy();
    }
  }, 300_000);

  it('two apps whose derived names normalize alike (Report.Viewer, report_viewer) are a collision naming both', async () => {
    const run = await runCli(['validate', reportsPlugin(tempDir(), [APP, 'report_viewer']), '--json', '--home', tempDir()]);
    expect(run.code).toBe(1);
    const problem = run.json().problems.find((p: { code: string }) => p.code === 'SERVER_NAME_COLLISION');
    expect(problem).toMatchObject({ path: 'apps[1].id' });
    expect(problem.message).toContain(`"${PLUGIN}.${APP}"`);
  }, 300_000);
});
