import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KnowledgeService } from '../../../src/core/knowledge/knowledgeService.js';
import { runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDir.js';
import { disposeHosts, startedHost } from './knowledgeFixtures.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';

afterEach(disposeHosts);

/** No model: words only, so nothing but the files is shared. */
const noModels = { get: () => undefined, ids: () => [], keyFor: async () => undefined };
const service = (dir: string) => new KnowledgeService({ dir, models: noModels, now: () => Date.now() });
const filesOf = async (kb: KnowledgeService, id: string) => (await kb.listDocuments(id)).files.map((f) => f.file);

/** Two writers of one base (the window and `chatos kb add`, or two windows): neither loses the other's change. */
describe('a knowledge base with two writers', () => {
  it('each change starts from what the other wrote, and changes made at once both land', async () => {
    const dir = tempDir('chatos-kb-writers-');
    const a = service(dir);
    const b = service(dir);
    await a.create({ name: 'Shared' });
    // B has the base open from before A's change.
    expect(await filesOf(b, 'shared')).toEqual([]);
    await a.addText('shared', 'Owls hunt at night over the meadow.', 'owls');
    await b.addText('shared', 'Rivers carry silt down to the delta.', 'rivers');
    expect(await filesOf(a, 'shared')).toEqual(['owls', 'rivers']);
    // A search sees the other writer's change too.
    expect((await b.search('shared', 'owls meadow')).hits[0]?.file).toBe('owls');

    await Promise.all([a.addText('shared', 'Bees dance to point at flowers.', 'bees'), b.addText('shared', 'Ferns spread by spores, not seeds.', 'ferns'), a.deleteFile('shared', 'rivers')]);
    const fresh = service(dir);
    expect(await filesOf(fresh, 'shared')).toEqual(['bees', 'ferns', 'owls']);
    expect((await fresh.get('shared')).counts).toEqual({ files: 3, chunks: 3 });
    // The lock is gone once the changes are done.
    expect(fs.existsSync(path.join(dir, 'shared', 'base.json.lock'))).toBe(false);
  });

  it('chatos kb add beside a running host: the host sees the file and its next add keeps it', async () => {
    const home = tempDir('chatos-kb-writers-home-');
    const host = await startedHost(home);
    await host.knowledge.create({ name: 'Notes' });
    await host.knowledge.addText('notes', 'Kept by the window: the tide tables.', 'window');
    const file = path.join(tempDir(), 'cli.md');
    fs.writeFileSync(file, '# From the terminal\n\nThe CLI added the lighthouse schedule.\n');
    const added = await runCli(['kb', 'add', 'notes', file, '--home', home]);
    expect(added.code, added.stderr).toBe(0);
    expect(await filesOf(internalsOf(host).knowledge.service, 'notes')).toEqual(['cli.md', 'window']);
    await host.knowledge.addText('notes', 'The window again: the harbour map.', 'window-2');
    const listed = await runCli(['kb', 'docs', 'notes', '--home', home, '--json']);
    expect(listed.json().files.map((f: { file: string }) => f.file)).toEqual(['cli.md', 'window', 'window-2']);
  });
});
