import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.js';
import { absentPgUrl, startPgServer, type PgServer } from '../helpers/pgliteServer.js';
import { tempDir } from '../helpers/tempDir.js';
import { writeFixtures } from '../core/knowledge/knowledgeFixtures.js';

/** `chatos kb create --engine postgres`: a base on a real PostgreSQL with pgvector (test/helpers/pgliteServer.ts), from the command line. */

let server: PgServer;
beforeAll(async () => {
  server = await startPgServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('chatos kb on a shared PostgreSQL engine', () => {
  it('creates a base there with its password from stdin, adds, searches and lists it', async () => {
    const home = tempDir('chatos-kbpg-cli-');
    const files = writeFixtures(tempDir('chatos-kbpg-cli-files-'));
    const created = await runCli(['kb', 'create', 'Team notes', '--engine', 'postgres', '--url', server.url, '--collection', 'team', '--password-stdin', '--chunk-size', '200', '--home', home], {
      input: 'team-password\n',
    });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`created knowledge base team_notes (words only, on ${server.url} as collection team)`);
    expect(fs.readFileSync(path.join(home, 'chatos', 'knowledge', 'team_notes', 'base.json'), 'utf8')).not.toContain('team-password');

    expect((await runCli(['kb', 'add', 'team_notes', files.md, files.pdf, '--home', home])).code).toBe(0);
    expect((await runCli(['kb', 'search', 'team_notes', 'volcano', '--home', home])).stdout).toMatch(/^1\. field-notes\.pdf #\d+ {2}score/);
    expect((await runCli(['kb', 'list', '--home', home])).stdout).toMatch(
      /team_notes {2}Team notes {2}2 file\(s\), \d+ chunk\(s\) {2}words only {2}on postgres:\/\/chatos@127\.0\.0\.1:\d+\/postgres \(team\)/,
    );

    // Another data home (a teammate's machine) attaches to the same collection and finds the same chunks.
    const other = tempDir('chatos-kbpg-cli-');
    const attached = await runCli(['kb', 'create', 'Team notes', '--engine', 'postgres', '--url', server.url, '--collection', 'team', '--home', other]);
    expect(attached.stdout).toMatch(/holding \d+ chunk\(s\) already/);
    expect((await runCli(['kb', 'search', 'team_notes', 'volcano', '--home', other])).stdout).toMatch(/^1\. field-notes\.pdf #\d+ {2}score/);
  });

  it('refuses a password in the URL, a URL without the engine, and names the base when the server is not there', async () => {
    const home = tempDir('chatos-kbpg-cli-');
    const inUrl = await runCli(['kb', 'create', 'Leaky', '--engine', 'postgres', '--url', `postgres://chatos:secret@127.0.0.1:${server.port}/postgres`, '--home', home]);
    expect(inUrl.code).toBe(2);
    expect(inUrl.stderr).toMatch(/must not carry a password/);
    expect(inUrl.stderr).not.toContain('secret@');
    expect((await runCli(['kb', 'create', 'Stray', '--url', server.url, '--home', home])).stderr).toMatch(/--url, --collection and --password-stdin go with --engine postgres/);

    const down = await runCli(['kb', 'create', 'Far away', '--engine', 'postgres', '--url', await absentPgUrl(), '--home', home]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('knowledge base "far_away": its PostgreSQL engine at postgres://chatos@127.0.0.1');
    expect(down.stderr).toContain('[KB_ENGINE_DOWN]');
    expect(down.stderr).toMatch(/start that server/);
    expect((await runCli(['kb', 'list', '--home', home])).stdout).toContain('no knowledge bases yet');
  });
});
