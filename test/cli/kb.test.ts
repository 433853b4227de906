import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFixtures } from '../core/knowledge/knowledgeFixtures.js';
import { startProviderServer } from '../helpers/providerServer.js';
import { runCli, runCliInTerminal, runCliMeasured } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

describe('chatos kb', () => {
  it('creates a base, adds a Markdown and a PDF file, searches, and deletes it, in text and --json', async () => {
    const home = tempDir('chatos-kb-cli-');
    const files = writeFixtures(tempDir('chatos-kb-cli-files-'));
    expect((await runCli(['kb', 'list', '--home', home])).stdout).toContain('no knowledge bases yet');

    const created = await runCli(['kb', 'create', 'Garden notes', '--chunk-size', '200', '--chunk-overlap', '20', '--home', home, '--json']);
    expect(created.code).toBe(0);
    expect(created.json().knowledgeBase).toMatchObject({ id: 'garden_notes', embeddingModel: null, chunkSize: 200 });

    const added = await runCli(['kb', 'add', 'garden_notes', files.md, files.pdf, '--home', home]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/added guide\.md: \d+ chunk\(s\)\nadded field-notes\.pdf: \d+ chunk\(s\)/);

    const search = await runCli(['kb', 'search', 'garden_notes', 'ladybugs aphids', '--home', home, '--json']);
    expect(search.json().mode).toBe('lexical');
    expect(search.json().hits[0]).toMatchObject({ file: 'guide.md', heading: 'Pests' });
    expect((await runCli(['kb', 'search', 'garden_notes', 'volcano', '--home', home])).stdout).toMatch(/^1\. field-notes\.pdf #\d+ {2}score/);

    const listed = (await runCli(['kb', 'list', '--home', home, '--json'])).json();
    expect(listed.knowledgeBases[0].counts.files).toBe(2);
    expect((await runCli(['kb', 'docs', 'garden_notes', '--home', home])).stdout).toMatch(/field-notes\.pdf {2}\d+ chunk\(s\)\n {2}guide\.md {2}\d+ chunk\(s\)/);
    expect((await runCli(['kb', 'remove', 'garden_notes', '--file', 'field-notes.pdf', '--home', home])).code).toBe(0);
    expect((await runCli(['kb', 'search', 'garden_notes', 'volcano', '--home', home, '--json'])).json().hits).toEqual([]);

    const missing = await runCli(['kb', 'search', 'nope', 'x', '--home', home]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no knowledge base "nope" \[KB_NOT_FOUND\]\n {4}fix: one of: garden_notes/);
    expect((await runCli(['kb', 'create', 'x', '--chunk-size', '100', '--chunk-overlap', '100', '--home', home])).code).toBe(2);

    expect((await runCli(['kb', 'delete', 'garden_notes', '--home', home, '--yes', '--json'])).json()).toEqual({ deleted: 'garden_notes' });
    expect((await runCli(['kb', 'list', '--home', home, '--json'])).json()).toEqual({ knowledgeBases: [] });
  }, 300_000);

  it('kb delete asks like uninstall: without a terminal it needs --yes; on one, n keeps the base and y deletes it', async () => {
    const home = tempDir('chatos-kb-cli-');
    expect((await runCli(['kb', 'create', 'Scratch', '--home', home])).code).toBe(0);
    const asked = await runCli(['kb', 'delete', 'scratch', '--home', home, '--json']);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toBe('');
    expect(asked.stderr).toContain('deleting knowledge base scratch ("Scratch") deletes its 0 file(s) and 0 chunk(s)');
    expect(asked.stderr).toContain('run "chatos kb delete scratch --yes"');
    const onTerminal = (answer: string) => runCliInTerminal(['kb', 'delete', 'scratch', '--home', home], answer);
    const kept = onTerminal('n');
    expect(kept.stdout).toContain('delete scratch? [y/N]');
    expect(kept.stdout).toContain('scratch was not deleted');
    expect((await runCli(['kb', 'list', '--home', home, '--json'])).json().knowledgeBases.map((b: { id: string }) => b.id)).toEqual(['scratch']);
    const deleted = onTerminal('y');
    expect(deleted.stdout).toContain('deleted knowledge base scratch');
    expect((await runCli(['kb', 'list', '--home', home, '--json'])).json()).toEqual({ knowledgeBases: [] });
  }, 300_000);

  it('embeds through a model entry, shows progress on stderr, and re-embeds on a model change', async () => {
    const provider = await startProviderServer();
    const home = tempDir('chatos-kb-cli-');
    const files = writeFixtures(tempDir('chatos-kb-cli-files-'));
    const model = (id: string, name: string) => runCli(['models', 'add', id, '--api', 'openai', '--base-url', provider.openaiUrl, '--model', name, '--home', home]);
    expect((await model('embed-a', 'embed-16d')).code).toBe(0);
    expect((await model('embed-b', 'embed-24d')).code).toBe(0);
    expect((await runCli(['kb', 'create', 'Docs', '--model', 'embed-a', '--chunk-size', '200', '--home', home])).code).toBe(0);
    const added = await runCli(['kb', 'add', 'docs', files.md, '--home', home]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toMatch(/guide\.md embedding (\d+)\/\1/);
    // A long add shows its count and an estimate of the time left after each batch.
    const long = path.join(tempDir('chatos-kb-cli-files-'), 'rivers.md');
    fs.writeFileSync(long, Array.from({ length: 200 }, (_, i) => `Paragraph ${i} tells of river number ${i} and its ${i % 7} bridges.`).join('\n\n'));
    const longAdd = await runCli(['kb', 'add', 'docs', long, '--home', home]);
    expect(longAdd.code, longAdd.stderr).toBe(0);
    expect(longAdd.stderr).toMatch(/rivers\.md embedding 64\/\d+, about \d+ (s|min) left/);
    const search = await runCli(['kb', 'search', 'docs', 'ladybugs', '--home', home, '--json']);
    expect(search.json().mode).toBe('hybrid');
    expect(search.json().hits[0].heading).toBe('Pests');
    const updated = await runCli(['kb', 'update', 'docs', '--model', 'embed-b', '--home', home, '--json']);
    expect(updated.json().knowledgeBase.embeddedWith).toEqual({ model: 'embed-b', dimensions: 24 });
    expect(provider.requests.filter((r) => r.body?.model === 'embed-24d').length).toBeGreaterThan(0);
  }, 300_000);

  it('Ctrl-C during a long add cancels it: the base is left as it was, and the process says so', async () => {
    const provider = await startProviderServer();
    const home = tempDir('chatos-kb-cli-');
    expect((await runCli(['models', 'add', 'embed-a', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'embed-16d', '--home', home])).code).toBe(0);
    expect((await runCli(['kb', 'create', 'Docs', '--model', 'embed-a', '--chunk-size', '100', '--chunk-overlap', '0', '--home', home])).code).toBe(0);
    const long = path.join(tempDir('chatos-kb-cli-files-'), 'rivers.md');
    fs.writeFileSync(long, Array.from({ length: 2000 }, (_, i) => `Paragraph ${i} tells of river number ${i}.`).join('\n\n'));
    // The process is the subject (a signal to it): spawned, and interrupted once its first batch is embedded.
    const child = spawn(process.execPath, [path.resolve('bin/chatos.js'), 'kb', 'add', 'docs', long, '--home', home], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let interrupted = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      // Once: a second Ctrl-C ends the process as usual.
      if (!interrupted && /embedding [1-9]\d*\//.test(stderr)) interrupted = child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (exit) => resolve(exit)));
    expect(code, stderr).not.toBe(0);
    expect(stderr).toMatch(/KB_CANCELLED/);
    const docs = await runCli(['kb', 'docs', 'docs', '--home', home, '--json']);
    expect(docs.json().files).toEqual([]);
  }, 120_000);

  it('adds many files as one change: 3,000 small files cost at most 4x the CPU time of 1,000', async () => {
    const home = tempDir('chatos-kb-cli-');
    const notes = (count: number) => {
      const dir = tempDir('chatos-kb-cli-many-');
      return Array.from({ length: count }, (_, i) => {
        const file = path.join(dir, `note-${i}.md`);
        fs.writeFileSync(file, `# Note ${i}\n\nThis note is about topic${i} and nothing else.\n`);
        return file;
      });
    };
    for (const name of ['one', 'three']) expect((await runCli(['kb', 'create', name, '--home', home])).code).toBe(0);
    const small = await runCliMeasured(['kb', 'add', 'one', ...notes(1000), '--home', home], { timeoutMs: 600_000 });
    expect(small.code, small.stderr).toBe(0);
    const large = await runCliMeasured(['kb', 'add', 'three', ...notes(3000), '--home', home], { timeoutMs: 600_000 });
    expect(large.code, large.stderr).toBe(0);
    expect(large.stdout).toContain('added note-2999.md: 1 chunk(s)');
    // CPU time of each whole run (start-up included), not the clock: what the add costs, however busy the machine is.
    expect(large.usage.cpuMs / small.usage.cpuMs).toBeLessThanOrEqual(4);
    const listed = (await runCli(['kb', 'list', '--home', home, '--json'])).json();
    expect(listed.knowledgeBases.map((b: { id: string; counts: unknown }) => [b.id, b.counts])).toEqual([
      ['one', { files: 1000, chunks: 1000 }],
      ['three', { files: 3000, chunks: 3000 }],
    ]);
  }, 1_200_000);
});
