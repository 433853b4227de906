import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ACP_FILE_BYTES } from '../../../src/core/acp/acpFiles.js';
import { answerOf, SCRIPTED_AGENT } from '../../helpers/acpAgent.js';
import { chatServerEntry, startChatWorld } from '../../helpers/chatWorld.js';
import { stressSize } from '../../helpers/stress.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

/**
 * `fs/read_text_file` and `fs/write_text_file` against what is not a plain file inside the roots (docs/using/acp.md#files-and-terminals):
 * a real FIFO, a device, a link that points out or nowhere, a link swapped in after the check, a huge file. Each is refused
 * with a reason the agent reads, nothing outside is read or written, and the host never blocks: every turn ends.
 */

const SWAPPER = path.join(repoRoot, 'test', 'fixtures', 'acp', 'pathSwapper.mjs');
const ended: (() => void)[] = [];
afterEach(() => ended.splice(0).forEach((end) => end()));

async function filesWorld() {
  const roots = tempDir('chatos-acp-files-');
  const outside = tempDir('chatos-acp-outside-');
  const world = await startChatWorld({
    servers: { chat: chatServerEntry() },
    // /dev is a root too, so a device is judged as a file there, not only as a place outside.
    agents: [{ id: 'coder', name: 'Coder', kind: 'acp', acp: { command: process.execPath, args: [SCRIPTED_AGENT] }, roots: [roots, '/dev'] }],
  });
  const say = async (text: string, conversationId?: string) => {
    const outcome = await world.host.chat.send(conversationId ? { conversationId, text } : { agentId: 'coder', text }).done;
    return { conversationId: outcome.conversationId, answer: answerOf(outcome.messages) };
  };
  return { ...world, roots, outside, say };
}

describe('fs requests of an ACP agent against what is not a plain file', () => {
  it('a real FIFO is refused for reading and writing, and the turn ends', async () => {
    const { roots, say } = await filesWorld();
    const fifo = path.join(roots, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const read = await say(`read ${fifo}`);
    expect(read.answer).toMatch(/^refused: .*pipe is a FIFO/);
    const write = await say(`write ${fifo} into the pipe`, read.conversationId);
    expect(write.answer).toMatch(/^refused: .*pipe is a FIFO/);
    expect(fs.statSync(fifo).isFIFO()).toBe(true);
  });

  it('a device is refused, read or written', async () => {
    const { say } = await filesWorld();
    const zero = await say('read /dev/zero');
    expect(zero.answer).toMatch(/^refused: \/dev\/zero is a device, not a regular file/);
    const nul = await say('write /dev/null nothing', zero.conversationId);
    expect(nul.answer).toMatch(/^refused: \/dev\/null is a device/);
  });

  it('a file larger than the bound is refused with its size, never read whole', async () => {
    const { roots, say } = await filesWorld();
    const huge = path.join(roots, 'huge.log');
    // Sparse: as large as it says, without the disk.
    fs.writeFileSync(huge, '');
    fs.truncateSync(huge, 4 * MAX_ACP_FILE_BYTES);
    const read = await say(`read ${huge}`);
    expect(read.answer).toMatch(new RegExp(`^refused: .*huge\\.log is larger than ${MAX_ACP_FILE_BYTES} bytes`));
  });

  it('a link that points nowhere is not followed by a write: nothing is created outside the roots', async () => {
    const { roots, outside, say } = await filesWorld();
    const target = path.join(outside, 'planted.txt');
    fs.symlinkSync(target, path.join(roots, 'dangling'));
    const write = await say(`write ${path.join(roots, 'dangling')} pwned`);
    expect(write.answer).toMatch(/^refused: .*dangling is a link the host does not follow/);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('a path swapped between a file, a link out and a FIFO while it is read: never the secret, never a hang', async () => {
    const { roots, outside, say } = await filesWorld();
    const secret = path.join(outside, 'secret.txt');
    fs.writeFileSync(secret, 'the secret');
    fs.writeFileSync(path.join(roots, 'regular.txt'), 'inside');
    const fifo = path.join(roots, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const target = path.join(roots, 'swapped.txt');
    // The regular file and the FIFO are hard-linked into place, so both stay in the roots' file system.
    const swapper = spawn(process.execPath, [SWAPPER, target, path.join(roots, 'regular.txt'), fifo, secret], { stdio: ['ignore', 'pipe', 'inherit'] });
    ended.push(() => swapper.kill('SIGKILL'));
    await once(swapper.stdout, 'data');
    const reads = await say(`readmany ${target} ${stressSize(2000, 300)}`);
    swapper.kill('SIGKILL');
    const seen: string[] = JSON.parse(reads.answer);
    expect(seen.some((answer) => answer.includes('the secret'))).toBe(false);
    expect(seen.every((answer) => answer === 'content: inside' || answer.startsWith('refused: '))).toBe(true);
  });
});
