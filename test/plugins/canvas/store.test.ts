import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import lockfile from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import { HISTORY_FILE, INSTANCES_FILE, readHistory } from '../../../plugins/canvas/mcp/historyFile.mjs';
import { CanvasStore } from '../../../plugins/canvas/mcp/store.mjs';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

const agent = { kind: 'agent', agentId: 'builder', appId: 'chatos', conversationId: 'c1', flow: 'main' };
const set = (key: string, value: unknown) => ({ instance_id: 'demo', patches: [{ op: 'set', path: `state.params.${key}`, value }] });
const storeModule = pathToFileURL(path.join(repoRoot, 'plugins', 'canvas', 'mcp', 'store.mjs')).href;

describe('the canvas store', () => {
  it('keeps instances and history in the data folder across restarts', async () => {
    const dir = tempDir();
    const first = new CanvasStore(dir);
    const created = await first.patch({ instance_id: '__CREATE__', new_instance_id: 'survey', patches: [{ op: 'add', path: 'actions+', value: { id: 'send', label: 'Send' } }] }, agent);
    expect(created).toMatchObject({ ok: true, result: { instance_id: 'survey', revision: 2 } });
    expect(fs.readdirSync(dir).sort()).toEqual([HISTORY_FILE, INSTANCES_FILE]);

    const second = new CanvasStore(dir);
    const listed = await second.read((state: any) => state.instances.map((i: any) => [i.instance_id, i.revision]));
    expect(listed).toEqual([
      ['demo', 1],
      ['survey', 2],
    ]);
    expect(await second.patch(set('x', 1), { kind: 'client', name: 'test' })).toMatchObject({ ok: true, result: { revision: 3 } });
    const history = readHistory(dir);
    expect(history.map((e: any) => [e.kind, e.instance_id, e.caller.kind, e.result.status])).toEqual([
      ['patch', 'demo', 'client', 'success'],
      ['create', 'survey', 'agent', 'success'],
    ]);
    expect(history[1].caller).toEqual(agent);
    expect(history[1].patches).toEqual([{ op: 'add', path: 'actions+', value: { id: 'send', label: 'Send' } }]);
  });

  it('applies calls one at a time in arrival order, each answered after it is on disk', async () => {
    const dir = tempDir();
    const store = new CanvasStore(dir);
    const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => store.patch(set('n', i), agent)));
    const revisions = outcomes.map((o: any) => o.result.revision);
    expect(revisions).toEqual(revisions.map((_: number, i: number) => i + 2));
    const onDisk = JSON.parse(fs.readFileSync(path.join(dir, INSTANCES_FILE), 'utf8'));
    expect(onDisk.instances[0].schema.state.params.n).toBe(199);
    expect(
      readHistory(dir, { limit: 500 })
        .map((e: any) => e.result.revision)
        .reverse(),
    ).toEqual(revisions);
  });

  it('records a refused call in the history, and leaves the instances file as it was', async () => {
    const dir = tempDir();
    const store = new CanvasStore(dir);
    await store.patch(set('a', 1), agent);
    const before = fs.statSync(path.join(dir, INSTANCES_FILE));
    const refused = await store.patch(
      {
        instance_id: 'demo',
        patches: [
          { op: 'set', path: 'state.params.b', value: 2 },
          { op: 'add', path: 'blocks' },
        ],
      },
      agent,
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_OP', patch_index: 1 } });
    const after = fs.statSync(path.join(dir, INSTANCES_FILE));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readHistory(dir, { instanceId: 'demo' })[0]).toMatchObject({ result: { status: 'error', code: 'INVALID_OP', patch_index: 1 } });
  });

  it('two processes on one folder lose no update: the lock makes them take turns', async () => {
    const dir = tempDir();
    const writer = (name: string) => `
      const { CanvasStore } = await import(${JSON.stringify(storeModule)});
      const store = new CanvasStore(${JSON.stringify(dir)});
      for (let i = 0; i < 60; i++) {
        const outcome = await store.patch({ instance_id: 'demo', patches: [{ op: 'set', path: 'state.params.${name}_' + i, value: i }] }, { kind: 'client', name: '${name}' });
        if (!outcome.ok) throw new Error(outcome.error.message);
      }`;
    const run = (name: string) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', writer(name)], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${name} exited ${code}: ${stderr}`))));
      });
    await Promise.all([run('p'), run('q')]);
    const state = JSON.parse(fs.readFileSync(path.join(dir, INSTANCES_FILE), 'utf8'));
    const keys = Object.keys(state.instances[0].schema.state.params);
    expect(keys.filter((k) => k.startsWith('p_'))).toHaveLength(60);
    expect(keys.filter((k) => k.startsWith('q_'))).toHaveLength(60);
    expect(state.seq).toBe(121);
    // Every revision was given out once.
    const revisions = readHistory(dir, { limit: 500 }).map((e: any) => e.result.revision);
    expect(new Set(revisions).size).toBe(120);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'))).toEqual([]);
  }, 300_000);

  it('reads (get_schema, list_instances) need no lock: a page reads while another process writes, and sees what it wrote', async () => {
    const dir = tempDir();
    const writer = new CanvasStore(dir);
    const reader = new CanvasStore(dir);
    const params = (state: any) => state.instances[0].schema.state.params;
    await writer.patch(set('n', 1), agent);
    // Another process holds the lock (a long batch of calls): the read still answers, with the file as written.
    const release = await lockfile.lock(path.join(dir, INSTANCES_FILE), { realpath: false });
    try {
      expect(await reader.read(params)).toMatchObject({ n: 1 });
    } finally {
      await release();
    }
    // The writer replaced the file: the reader's cached state is stale and is read again.
    await writer.patch(set('n', 2), agent);
    expect(await reader.read(params)).toMatchObject({ n: 2 });
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.lock'))).toEqual([]);
  }, 300_000);

  it('moves an unreadable instances file aside, says so, and starts again from the demo', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, INSTANCES_FILE), '{"seq": 3, "instances": [{"instance_id": "x"');
    const logged: string[] = [];
    const store = new CanvasStore(dir, { log: (line: string) => logged.push(line) });
    expect(await store.read((state: any) => state.instances.map((i: any) => i.instance_id))).toEqual(['demo']);
    const aside = fs.readdirSync(dir).filter((f) => f.startsWith('canvas-instances.broken-'));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, aside[0]!), 'utf8')).toContain('"instance_id": "x"');
    expect(logged.join('\n')).toContain(`moved to ${path.join(dir, aside[0]!)}`);
  });

  it('an instances file whose schema is invalid is moved aside too (never trusted as it is)', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, INSTANCES_FILE), JSON.stringify({ seq: 2, instances: [{ instance_id: 'demo', revision: 2, schema: { meta: {} } }] }));
    const store = new CanvasStore(dir, { log: () => undefined });
    expect(await store.read((state: any) => state.seq)).toBe(1);
  });

  it('bounds the history: past its size it keeps the newest calls', async () => {
    const dir = tempDir();
    const store = new CanvasStore(dir, { historyMaxBytes: 20_000, historyKeep: 10, fsync: false });
    for (let i = 0; i < 120; i++) await store.patch(set('n', i), agent);
    const history = readHistory(dir, { limit: 1000 });
    expect(history.length).toBeLessThan(80);
    expect(history[0].result).toMatchObject({ revision: 121 });
    expect(fs.statSync(path.join(dir, HISTORY_FILE)).size).toBeLessThanOrEqual(20_000);
  });

  it('history readers skip a torn line', () => {
    const dir = tempDir();
    const entry = { id: '1', at: new Date(0).toISOString(), instance_id: 'demo', kind: 'patch', caller: { kind: 'client' }, patches: [], result: { status: 'success', revision: 2, applied: 0 } };
    fs.writeFileSync(path.join(dir, HISTORY_FILE), `${JSON.stringify(entry)}\n{"id": "2", "at"`);
    expect(readHistory(dir)).toEqual([entry]);
  });
});
