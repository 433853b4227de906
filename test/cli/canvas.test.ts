import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHistory } from '../../plugins/canvas/mcp/historyFile.mjs';
import { ListInstancesResultSchema, PatchResultSchema } from '../../plugins/canvas/mcp/uiSchema.mjs';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * The four examples of the canvas rules (docs/rules/canvas.md) through the real gateway: `chatos call` as a user
 * runs it (a fresh host per call, the built-in Canvas server over stdio,
 * the instances in the plugin's data folder), with list_instances after each.
 */
const SERVER = 'chatos.canvas::chatos.canvas.canvas';
const tool = (name: string) => `mcp_chatos_canvas_canvas_${name}`;

async function call(home: string, name: string, args: unknown, app = 'chatos') {
  const run = await runCli(['call', tool(name), '--app', app, '--home', home, '--args', JSON.stringify(args), '--json']);
  return { run, outcome: run.code === 0 || run.stdout.startsWith('{') ? run.json() : undefined };
}

async function listed(home: string) {
  const { run, outcome } = await call(home, 'list_instances', {});
  expect(run.code, run.stderr).toBe(0);
  return ListInstancesResultSchema.parse(outcome.result.structuredContent);
}

async function patched(home: string, args: unknown) {
  const { run, outcome } = await call(home, 'patch_ui_state', args);
  expect(run.code, run.stderr).toBe(0);
  expect(outcome.tool.serverId).toBe(SERVER);
  return PatchResultSchema.parse(outcome.result.structuredContent);
}

describe('the Canvas through chatos call (docs/rules/canvas.md examples)', () => {
  it('update state, add a block, create an instance, delete one; list_instances after each', async () => {
    const home = tempDir();
    const summary = async () => (await listed(home)).instances.map((i) => `${i.instance_id}:${i.blocks_count}b/${i.actions_count}a@${i.revision}`);
    expect(await summary()).toEqual(['demo:1b/1a@1']);
    // The first and the last example work on instances the examples of docs/rules/canvas.md assume exist.
    await patched(home, { instance_id: '__CREATE__', new_instance_id: 'counter', patches: [] });
    await patched(home, { instance_id: '__CREATE__', new_instance_id: 'old_instance', patches: [] });
    expect(await summary()).toEqual(['demo:1b/1a@1', 'counter:0b/0a@2', 'old_instance:0b/0a@3']);

    // 1. Update state.
    const updated = await patched(home, { instance_id: 'counter', patches: [{ op: 'set', path: 'state.params.count', value: 42 }] });
    expect(updated).toMatchObject({ status: 'success', instance_id: 'counter', revision: 4, applied: 1, schema: { state: { params: { count: 42 } } } });
    expect(await summary()).toEqual(['demo:1b/1a@1', 'counter:0b/0a@4', 'old_instance:0b/0a@3']);

    // 2. Add a block.
    const added = await patched(home, {
      instance_id: 'demo',
      patches: [{ op: 'add', path: 'blocks+', value: { id: 'new_block', type: 'form', bind: 'state.params', props: { fields: [{ label: 'Field', key: 'field1', type: 'text' }] } } }],
    });
    expect(added.schema!.blocks.map((b) => b.id)).toEqual(['profile', 'new_block']);
    expect(await summary()).toEqual(['demo:2b/1a@5', 'counter:0b/0a@4', 'old_instance:0b/0a@3']);

    // 3. Create an instance.
    const created = await patched(home, {
      instance_id: '__CREATE__',
      new_instance_id: 'my_instance',
      patches: [
        { op: 'set', path: 'meta', value: { pageKey: 'my_instance', step: { current: 1, total: 1 }, status: 'idle' } },
        { op: 'set', path: 'state', value: { params: {}, runtime: {} } },
        { op: 'set', path: 'blocks', value: [] },
        { op: 'set', path: 'actions', value: [] },
      ],
    });
    expect(created).toMatchObject({ status: 'success', instance_id: 'my_instance', created: true, revision: 6, applied: 4 });
    expect((await listed(home)).instances.at(-1)).toEqual({ instance_id: 'my_instance', page_key: 'my_instance', status: 'idle', blocks_count: 0, actions_count: 0, revision: 6 });

    // 4. Delete an instance.
    const deleted = await patched(home, { instance_id: '__DELETE__', target_instance_id: 'old_instance', patches: [] });
    expect(deleted).toMatchObject({ status: 'success', instance_id: 'old_instance', deleted: true });
    expect(await summary()).toEqual(['demo:2b/1a@5', 'counter:0b/0a@4', 'my_instance:0b/0a@6']);
    expect((await listed(home)).total).toBe(3);

    // get_schema with no id answers the demo, in the shape of docs/rules/canvas.md#tools.
    const { outcome } = await call(home, 'get_schema', {});
    expect(Object.keys(outcome.result.structuredContent.schema)).toEqual(['meta', 'state', 'layout', 'blocks', 'actions']);
    // The instances live in the plugin's data folder, and the history says the CLI (the app chatos) sent each call.
    const dataDir = path.join(home, 'chatos', 'ui_apps', 'data', 'chatos.canvas');
    expect(fs.existsSync(path.join(dataDir, 'canvas-instances.json'))).toBe(true);
    expect(readHistory(dataDir).map((e: any) => [e.kind, e.instance_id, e.caller.kind, e.caller.appId])).toEqual([
      ['delete', 'old_instance', 'app', 'chatos'],
      ['create', 'my_instance', 'app', 'chatos'],
      ['patch', 'demo', 'app', 'chatos'],
      ['patch', 'counter', 'app', 'chatos'],
      ['create', 'old_instance', 'app', 'chatos'],
      ['create', 'counter', 'app', 'chatos'],
    ]);
    // Eighteen CLI processes, each starting a host and the server: generous on a busy machine.
  }, 300_000);

  it('a refused patch exits 1 with its error code in the result; another app needs a grant first', async () => {
    const home = tempDir();
    const refused = await call(home, 'patch_ui_state', { instance_id: 'counter', patches: [{ op: 'set', path: 'state.params.count', value: 42 }] });
    expect(refused.run.code).toBe(1);
    expect(refused.outcome.result).toMatchObject({ isError: true, structuredContent: { status: 'error', error: { code: 'INVALID_INSTANCE' } } });
    expect(refused.outcome.result.content[0].text).toMatch(/^INVALID_INSTANCE: no instance "counter"; instances: "demo"/);

    const ungranted = await call(home, 'list_instances', {}, 'aide');
    expect(ungranted.run.code).toBe(1);
    expect(ungranted.run.stderr).toContain(`chatos grant aide ${SERVER}`);
    expect((await runCli(['grant', 'aide', SERVER, '--home', home])).code).toBe(0);
    const granted = await call(home, 'list_instances', {}, 'aide');
    expect(granted.run.code, granted.run.stderr).toBe(0);
    expect(granted.outcome.result.structuredContent.total).toBe(1);
  }, 300_000);
});
