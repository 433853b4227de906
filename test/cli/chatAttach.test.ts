import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliWorld } from '../helpers/cliChatWorld.js';
import { pdfWithText } from '../helpers/pdfFile.js';
import { tempDir } from '../helpers/tempDir.js';
// @ts-expect-error a plain ES module without types
import { solidPng } from '../../plugins/notes/mcp/pngSwatch.mjs';

/** `chatos chat --attach` (docs/reference/cli.md#chatos-chat): the built CLI, the local provider server; what the provider received is checked. */

describe('chatos chat --attach', { timeout: 180_000 }, () => {
  it('sends an image as an image part and a PDF as its text, keeps them with the conversation and exports them', async () => {
    const { provider, cli } = await cliWorld({ vision: true });
    const dir = tempDir();
    const png: Buffer = solidPng(8, [0, 0, 255]);
    fs.writeFileSync(path.join(dir, 'blue.png'), png);
    fs.writeFileSync(path.join(dir, 'plan.pdf'), pdfWithText([['Plan: paint the fence blue', 'Budget 300 euros']]));
    provider.enqueue({ kind: 'reply', text: 'A blue square and a plan.' });

    const run = await cli(['chat', '--agent', 'helper', '-m', 'what are these?', '--attach', path.join(dir, 'blue.png'), '--attach', path.join(dir, 'plan.pdf'), '--json']);
    expect(run.code, run.stderr).toBe(0);
    const user = provider.requests[0]!.body.messages.at(-1);
    expect(user.content[0]).toEqual({ type: 'text', text: 'what are these?' });
    expect(user.content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } });
    expect(user.content[2].text).toMatch(/^--- Attached file: plan\.pdf ---\nPlan: paint the fence blue\nBudget 300 euros\n--- End of plan\.pdf ---$/);
    const outcome = run.json();
    expect(outcome.messages[0].attachments.map((a: { name: string; kind: string }) => [a.kind, a.name])).toEqual([
      ['image', 'blue.png'],
      ['document', 'plan.pdf'],
    ]);

    const exported = await cli(['conversations', 'export', outcome.conversationId]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('**Attached:** plan.pdf (application/pdf');
    expect(exported.stdout).toContain('Budget 300 euros');
    expect(exported.stdout).toContain(`data:image/png;base64,${png.toString('base64')}`);
  });

  it('refuses a 50 MB file and a type it cannot read before anything is sent, naming the file and the fix', async () => {
    const { provider, cli } = await cliWorld();
    const dir = tempDir();
    const big = path.join(dir, 'scan.pdf');
    fs.closeSync(fs.openSync(big, 'w'));
    fs.truncateSync(big, 50 * 1024 * 1024);
    const tooLarge = await cli(['chat', '--agent', 'helper', '-m', 'read it', '--attach', big]);
    expect(tooLarge.code).toBe(1);
    expect(tooLarge.stderr).toContain('scan.pdf is larger than 20 MB');
    expect(tooLarge.stderr).toMatch(/fix: attach a smaller file/);

    fs.writeFileSync(path.join(dir, 'sheet.xlsx'), 'PK\u0003\u0004');
    const odd = await cli(['chat', '--agent', 'helper', '-m', 'read it', '--attach', path.join(dir, 'sheet.xlsx')]);
    expect(odd.code).toBe(1);
    expect(odd.stderr).toContain('sheet.xlsx: a message can carry images (PNG, JPEG, GIF, WebP) and text, Markdown, HTML or PDF files, not ".xlsx"');
    expect(provider.requests).toHaveLength(0);
    expect((await cli(['conversations', 'list', '--json'])).json().conversations).toEqual([]);
  });
});
