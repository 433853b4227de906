import { describe, expect, it } from 'vitest';
import { runCli, runCliInTerminal as runInTerminal } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

const NOTES = 'mcp_chatos_notes_notes';

describe('chatos call', () => {
  it('asks y/N on a terminal for a confirm-level tool: n declines, y runs it', () => {
    const home = tempDir();
    const deleteNote = ['call', `${NOTES}_delete_note`, '--app', 'chatos', '--args', '{"id":"nope"}', '--home', home];
    const declined = runInTerminal(deleteNote, 'n');
    expect(declined.stdout).toContain('run it? [y/N]');
    expect(declined.stdout).toContain('The user declined');
    expect(declined.status).toBe(1);

    const approved = runInTerminal(deleteNote, 'y');
    expect(approved.stdout).toContain('run it? [y/N]');
    // It ran: the Notes server itself answered that there is no such note.
    expect(approved.stdout).toContain('no note with id nope');
  }, 300_000);

  it('the question shows every argument: one that comes after 300 characters of another is there to judge', () => {
    const home = tempDir();
    const args = JSON.stringify({ padding: 'x'.repeat(300), id: 'the-note-that-matters' });
    const asked = runInTerminal(['call', `${NOTES}_delete_note`, '--app', 'chatos', '--args', args, '--home', home], 'n');
    expect(asked.stdout).toContain('with its 2 arguments:');
    expect(asked.stdout).toContain('  id: "the-note-that-matters"');
    expect(asked.stdout).toContain('run it? [y/N]');
    expect(asked.stdout).toContain('The user declined');
  }, 300_000);

  it('without a terminal refuses a confirm-level tool unless --yes, and the audit shows both', async () => {
    const home = tempDir();
    const args = ['call', `${NOTES}_delete_note`, '--app', 'chatos', '--args', '{"id":"nope"}', '--home', home];
    const refused = await runCli(args);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('rerun it with --yes');
    const approved = await runCli([...args, '--yes']);
    expect(approved.stdout).toContain('no note with id nope');

    expect((await runCli(['audit', '--limit', '0', '--home', home])).code).toBe(2);
    const audit = await runCli(['audit', '--json', '--home', home]);
    expect(audit.code).toBe(0);
    expect(audit.json().records.map((r: { decision: string; outcome: string }) => `${r.decision}/${r.outcome}`)).toEqual(['approved/tool-error', 'declined/declined']);
  }, 300_000);

  it('refuses bad usage and calls the caller may not make', async () => {
    const home = tempDir();
    expect((await runCli(['call', `${NOTES}_list_notes`, '--app', 'chatos', '--args', '{bad', '--home', home])).code).toBe(2);
    expect((await runCli(['call', `${NOTES}_list_notes`, '--home', home])).code).toBe(2);
    const notGranted = await runCli(['call', `${NOTES}_list_notes`, '--app', 'aide', '--home', home]);
    expect(notGranted.code).toBe(1);
    expect(notGranted.stderr).toContain('chatos grant aide chatos.notes::chatos.notes.notes');
    const wrongFlow = await runCli(['call', 'mcp_memory_read_graph', '--app', 'chatos', '--flow', 'side', '--home', home]);
    expect(wrongFlow.code).toBe(2);
  }, 300_000);
});
