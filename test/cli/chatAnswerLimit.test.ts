import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startProviderServer } from '../helpers/providerServer.js';
import { endlessChatAnswer } from '../helpers/providerWire/openaiChatWire.js';
import { runCli, runCliMeasured } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * Issue 25 item 7 as a user meets it: `chatos chat` against a provider
 * that streams a 200 MiB answer. The turn ends cut at the limit, and the
 * process's peak memory stays near that of a small answer (the old code
 * held the whole answer, several times over: ~1.1 GB).
 */

const MiB = 1024 * 1024;
const PIECE = 'All work and no play makes a dull answer. '.repeat(1600);

const endlessText = (total: number) => endlessChatAnswer(total, { piece: PIECE });

describe('chatos chat and a 200 MiB answer', { timeout: 300_000 }, () => {
  it('stops at the limit with a problem saying how to raise it, its peak memory near that of a small answer', async () => {
    const provider = await startProviderServer();
    const home = tempDir();
    const added = await runCli(['models', 'add', 'local', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'test-model', '--home', home]);
    expect(added.code, added.stderr).toBe(0);
    const agentFile = path.join(tempDir(), 'agent.json');
    fs.writeFileSync(agentFile, JSON.stringify({ id: 'writer', name: 'Writer', modelId: 'local', systemPrompt: 'Write.' }));
    const created = await runCli(['agents', 'create', '--file', agentFile, '--home', home]);
    expect(created.code, created.stderr).toBe(0);

    provider.enqueue({ kind: 'reply', text: 'A short answer.' });
    const small = await runCliMeasured(['chat', '--agent', 'writer', '-m', 'briefly', '--home', home]);
    expect(small.code, small.stderr).toBe(0);

    provider.enqueue({ kind: 'frames', frames: endlessText(200 * MiB) });
    const long = await runCliMeasured(['chat', '--agent', 'writer', '-m', 'at length', '--home', home], { timeoutMs: 240_000 });
    expect(long.code).toBe(1);
    expect(long.stderr).toContain('1048576 characters');
    expect(long.stderr).toMatch(/fix: .*--max-answer-chars/);
    // The answer printed is the kept part (and a line end), not the stream.
    expect(long.stdoutBytes).toBeGreaterThanOrEqual(MiB);
    expect(long.stdoutBytes).toBeLessThan(MiB + 1024);
    // A ratio to the small answer's run on this machine, not a fixed number: about 1.1 when bounded, ~9 when the answer is held whole.
    expect(long.usage.maxRssKiB / small.usage.maxRssKiB).toBeLessThan(2);

    // The limit is the user's to raise: a smaller one given on the command line cuts there.
    provider.enqueue({ kind: 'frames', frames: endlessText(200 * MiB) });
    const limited = await runCliMeasured(['chat', '--agent', 'writer', '-m', 'again', '--max-answer-chars', '5000', '--home', home]);
    expect(limited.code).toBe(1);
    expect(limited.stderr).toContain('5000 characters');
    expect(limited.stdoutBytes).toBeLessThan(5002);
  });
});
