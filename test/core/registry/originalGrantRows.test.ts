import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caller, startTestHost } from '../../helpers/gatewayHost.js';
import { readRawRows, writeProviderDb, writeRawRows } from '../../helpers/originalHome.js';

/**
 * The original ChatOS: "mcpServerGrants.server_id / promptGrants.prompt_id hold the
 * registry id". A data home the original ChatOS wrote keeps its grants in
 * that shape, under ids of its own; ChatOS stores `{ appId, targetId }`
 * keyed `<appId>=><registryId>` (docs/rules/registry.md#storage). Such rows
 * are the user's grants: read as grants, re-keyed on load, never listed as
 * broken rows; a malformed one is still a problem, named by its own field.
 */

const GIT_OWN = 'git_app::git_own';
const GIT_OWN_PROMPT = 'git_app::git_app_own_prompt';
const GRANTED_AT = '2025-01-02T03:04:05.000Z';

async function originalGrantHome() {
  return startTestHost(async ({ home }) => {
    await writeProviderDb(home, 'git_app', 'git_own');
    const hostDb = path.join(home, 'chatos', 'admin.db');
    await writeRawRows(hostDb, 'mcpServerGrants', {
      'c7a1f6e2-grant-1': { app_id: 'wsl', server_id: GIT_OWN, created_at: GRANTED_AT },
      'c7a1f6e2-grant-bad': { app_id: 'aide', server_id: 42 },
    });
    await writeRawRows(hostDb, 'promptGrants', { 'c7a1f6e2-grant-2': { app_id: 'wsl', prompt_id: GIT_OWN_PROMPT } });
  });
}

describe("the original ChatOS's grant rows (server_id / prompt_id)", () => {
  it('are the grants they are: the app may use what they name, and only that', async () => {
    const { host } = await originalGrantHome();
    expect(host.registry.hasMcpServerAccess('wsl', GIT_OWN)).toBe(true);
    expect(host.registry.hasPromptAccess('wsl', GIT_OWN_PROMPT)).toBe(true);
    expect(host.tools.visibleServers(caller('conv-w', { appId: 'wsl' })).map((s) => s.id)).toContain(GIT_OWN);
    expect(host.registry.listGrants('server', 'wsl')).toEqual([{ appId: 'wsl', targetId: GIT_OWN, grantedAt: GRANTED_AT }]);
    expect(host.registry.listGrants('prompt', 'wsl')).toEqual([expect.objectContaining({ appId: 'wsl', targetId: GIT_OWN_PROMPT })]);
    // The malformed row grants nothing.
    expect(host.registry.hasMcpServerAccess('aide', GIT_OWN)).toBe(false);
    expect(host.registry.listGrants('server', 'aide')).toEqual([]);
  });

  it('are not listed in Problems; a malformed one is, with the field it has (server_id)', async () => {
    const { host } = await originalGrantHome();
    const invalid = host.registry.problems.filter((p) => p.code === 'RECORD_INVALID');
    expect(invalid).toEqual([expect.objectContaining({ path: 'mcpServerGrants.c7a1f6e2-grant-bad.server_id', message: expect.stringContaining('server_id') })]);
  });

  it("are re-keyed in ChatOS's shape in the file by the same save that removes them; the malformed row is left as it was", async () => {
    const { host, home } = await originalGrantHome();
    await host.dispose();
    const hostDb = path.join(home, 'chatos', 'admin.db');
    expect(await readRawRows(hostDb, 'mcpServerGrants')).toEqual({
      [`wsl=>${GIT_OWN}`]: { appId: 'wsl', targetId: GIT_OWN, grantedAt: GRANTED_AT },
      'c7a1f6e2-grant-bad': { app_id: 'aide', server_id: 42 },
    });
    const prompts = await readRawRows(hostDb, 'promptGrants');
    expect(Object.keys(prompts)).toEqual([`wsl=>${GIT_OWN_PROMPT}`]);
    expect(prompts[`wsl=>${GIT_OWN_PROMPT}`]).toMatchObject({ appId: 'wsl', targetId: GIT_OWN_PROMPT, grantedAt: expect.stringMatching(/^\d{4}-/) });
  });
});
