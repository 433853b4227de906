import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { longConversationMessages, writeConversationLog } from '../../scripts/bench/longConversation.js';
import { chatServerEntry } from '../helpers/mcpYaml.js';
import { type launchChromium, openChromiumOn, openRoute, restingMiddle, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';
import { fileFolders, setUpDeskHome } from '../helpers/deskHome.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';

/**
 * The Chat page at real lengths (issue 28), in Chromium against a real
 * `chatos serve`: a 3,000-message conversation (a real messages.jsonl)
 * opens at its newest message with only a screenful of it in the DOM,
 * scrolls by wheel to its first message, and a search hit jumps to an old
 * message; the view follows the output after a tool returned an image,
 * stops following when the user scrolls up (a "jump to latest" button
 * counts what came since), holds still while a button in it is pressed
 * (the click lands as the output streams in), and announces a confirmation
 * it does not show;
 * a tool call waiting for approval says so with its countdown, and runs
 * (its time counted from then) once approved; a conversation file with a
 * torn last line and a message this version rejects opens with notices.
 * Screenshots: test-output/screenshots/longchat-*.
 */

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
const folders = fileFolders();

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);
const conversationsDir = () => path.join(home, 'chatos', 'conversations');
const scroll = () => page.getByTestId('chat-scroll');
const phase = () => page.getByTestId('chat-pane').getAttribute('data-phase');
/** Pixels between the bottom of what is shown and the bottom of the conversation. */
const gapToBottom = () => scroll().evaluate((box) => box.scrollHeight - box.scrollTop - box.clientHeight);
/**
 * The row at the top of the view and where it is on screen: what the user sees hold still or move. (Not scrollTop:
 * the virtual list moves it when rows above the view are measured, keeping what is shown where it is.)
 */
const topOfView = () =>
  scroll().evaluate((view) => {
    const top = view.getBoundingClientRect().top;
    const row = [...view.querySelectorAll<HTMLElement>('[data-row]')].find((el) => el.getBoundingClientRect().bottom > top + 1);
    return { row: row?.dataset.row, y: Math.round(row?.getBoundingClientRect().top ?? NaN) };
  });

/** A conversation of the helper whose log is `messages` (written as the host writes one). */
async function conversationWith(title: string, write: (dir: string, id: string) => void): Promise<string> {
  const { conversation } = await api<{ conversation: { id: string } }>('conversations.create', { agentId: 'helper', title });
  write(conversationsDir(), conversation.id);
  return conversation.id;
}

async function send(text: string): Promise<void> {
  const input = page.getByTestId('chat-input');
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

/** From now on, records each style sheet put into or taken out of the page's head; `styleSheetChanges()` lists them. */
function observeStyleSheets(): Promise<void> {
  return page.evaluate(() => {
    const changes: string[] = ((window as any).__styleSheetChanges = []);
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) changes.push(`+${(node.textContent ?? '').slice(0, 60)}`);
        for (const node of record.removedNodes) changes.push(`-${(node.textContent ?? '').slice(0, 60)}`);
      }
    }).observe(document.head, { childList: true });
  });
}
const styleSheetChanges = () => page.evaluate(() => (window as any).__styleSheetChanges as string[]);

/** Wheels up over the messages until `selector` is in the DOM and the view is at its top (older windows load on the way), at most `steps` times. */
async function wheelUpUntil(selector: string, steps: number): Promise<void> {
  const box = (await scroll().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const arrived = async () => (await page.locator(selector).count()) > 0 && (await scroll().evaluate((el) => el.scrollTop)) === 0;
  for (let i = 0; i < steps && !(await arrived()); i++) {
    await page.mouse.wheel(0, -3000);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }
}

/** Presses Home in the view, again and again (older windows load each time), until `selector` is in the DOM at the top, at most `times` times. */
async function toTopUntil(selector: string, times: number): Promise<void> {
  await scroll().focus();
  const arrived = async () => (await page.locator(selector).count()) > 0 && (await scroll().evaluate((el) => el.scrollTop)) === 0;
  for (let i = 0; i < times && !(await arrived()); i++) {
    await page.keyboard.press('Home');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }
}

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = folders.make('chatos-ui-longchat-');
  writeMcpYaml(home, { chat: chatServerEntry() });
  await setUpDeskHome({
    home,
    root: folders.make('chatos-ui-longchat-plugins-'),
    server: 'chat',
    providerUrl: provider.openaiUrl,
    apiKey: 'sk-long-chat-test',
    agents: [{ id: 'helper', name: 'Helper', description: 'Long talks' }],
  });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 860 }));
  // Five CLI runs and a serve start: on a loaded machine more than a minute.
}, 180_000);

afterEach((context) => screenshotOnFailure(page, 'longchat', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  folders.removeAll();
});

describe('the Chat page at real lengths', { timeout: 300_000 }, () => {
  it('opens a 3,000-message conversation at its newest message with a screenful in the DOM, wheels to its first, and a search hit jumps to an old message', async () => {
    const id = await conversationWith('three thousand', (dir, id) => writeConversationLog(dir, id, longConversationMessages(3000, 'helper')));
    await openRoute(page, `#/chat/${id}`, 'chat-pane');
    await page.locator('[data-message="m2999"]').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await page.locator('[data-message="m2999"]').textContent()).toContain('That is all for turn 749');
    // Only what is near the view is in the DOM: a few screens, not 3,000 messages.
    expect(await page.locator('[data-message]').count()).toBeLessThan(40);
    await expect.poll(gapToBottom).toBeLessThan(60);
    await screenshot(page, 'longchat-01-newest');
    // The newest turn's tool card, opened: it stays open after its row has scrolled away and back.
    const lastCard = page.getByTestId('tool-call-call-749');
    // With the keyboard, as every press in the chat's list (docs/contributing/testing.md): rows below may still be measured.
    await lastCard.getByTestId('tool-call-toggle').press('Enter');
    await lastCard.getByTestId('tool-call-result').waitFor();

    // To the top by the Home key, again and again (older windows load each time); wheeling all the way is the bench's part.
    // Rows mount and unmount on the way: none may take a style sheet out of the page or put one in (each change restyles the whole page).
    await scroll().focus();
    await page.keyboard.press('Home');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await observeStyleSheets();
    await toTopUntil('[data-message="m0"]', 3000);
    expect(await styleSheetChanges()).toEqual([]);
    await page.locator('[data-message="m0"]').waitFor({ state: 'visible' });
    await expect.poll(() => scroll().evaluate((box) => box.scrollTop)).toBe(0);
    expect(await page.locator('[data-message]').count()).toBeLessThan(40);
    expect(await page.locator('[data-message="m0"]').textContent()).toContain('Question 0');
    await screenshot(page, 'longchat-02-first-message');

    // Turn 17's question is message 68: the search hit opens the conversation there, marked.
    await page.getByTestId('chat-search').fill('needle-17,');
    const hit = page.getByTestId('search-hit').first();
    await hit.waitFor();
    expect(await hit.getAttribute('data-hit-message')).toBe('m68');
    await hit.click();
    const target = page.locator('.chat-row-target [data-message="m68"]');
    await target.waitFor({ state: 'visible', timeout: 20_000 });
    // In the view, not only in the DOM.
    await expect
      .poll(() =>
        target.evaluate((el) => {
          const view = el.closest('[data-testid="chat-scroll"]')!.getBoundingClientRect();
          const own = el.getBoundingClientRect();
          return own.bottom > view.top && own.top < view.bottom;
        }),
      )
      .toBe(true);
    expect(await page.locator('[data-message="m2999"]').count()).toBe(0);
    await screenshot(page, 'longchat-03-search-jump');
    // From there, the latest is one click away.
    await page.getByTestId('chat-jump-latest').click();
    await page.locator('[data-message="m2999"]').waitFor({ state: 'visible', timeout: 20_000 });
    expect(await lastCard.getByTestId('tool-call-result').textContent()).toContain('Notes for turn 749');
    await page.getByTestId('chat-search').fill('');
  });

  it('flung, rows coming into view wait as boxes and render once the view slows, the view staying where the user put it; a row seen before waits as a box of its own height', async () => {
    const id = await conversationWith('flung', (dir, id) => writeConversationLog(dir, id, longConversationMessages(400, 'helper')));
    await openRoute(page, `#/chat/${id}`, 'chat-pane');
    await page.locator('[data-message="m399"]').waitFor({ state: 'visible', timeout: 30_000 });
    const box = (await scroll().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // Every box that appears, with its height: the frames where a fling lands are gone before a test could look.
    await page.evaluate(() => {
      const boxes: { id: string; height: number }[] = ((window as any).__boxes = []);
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            for (const el of node instanceof HTMLElement ? [node, ...node.querySelectorAll<HTMLElement>('[data-pending-message]')] : [])
              if (el.dataset.pendingMessage) boxes.push({ id: el.dataset.pendingMessage, height: parseFloat(el.style.height) });
      }).observe(document.querySelector('[data-testid="chat-scroll"]')!, { childList: true, subtree: true });
    });
    const boxes = () => page.evaluate(() => (window as any).__boxes as { id: string; height: number }[]);
    const settled = async () => {
      await expect.poll(() => page.locator('[data-pending-message]').count(), { timeout: 20_000 }).toBe(0);
      // What is in view is whole messages, with their text.
      expect(await page.locator('[data-message]').count()).toBeGreaterThan(0);
      const heights = await page
        .locator('.chat-row-body > [data-message]')
        .evaluateAll((els) => els.map((el) => [el.getAttribute('data-message')!, el.parentElement!.getBoundingClientRect().height] as const));
      return new Map(heights);
    };

    // The wheel is sent before the view moves: each step waits for the boxes it makes, then for the view to fill in.
    await page.mouse.wheel(0, -4000);
    await expect.poll(async () => (await boxes()).length).toBeGreaterThan(0);
    // The row at the top of the view right after the wheel (a box or a message): the view stays with it while the boxes fill in.
    const topRow = () =>
      scroll().evaluate((view) => {
        const top = view.getBoundingClientRect().top;
        const rows = [...view.querySelectorAll<HTMLElement>('[data-row]')];
        return rows.find((row) => row.getBoundingClientRect().bottom > top + 1)?.dataset.row;
      });
    // For a frame or two after a fling the view can hold no row at all (the list has not yet rendered the rows of where
    // the wheel put it: CI saw it once): the row is the first one in view once there is one.
    await expect.poll(topRow).toBeDefined();
    const atWheel = await topRow();
    const seen = await settled();
    expect(seen.size).toBeGreaterThan(0);
    // Filled in, the view is where the user put it, far from the newest message, and the way back is the button.
    const row = page.locator(`[data-row="${atWheel}"]`);
    expect(
      await row.evaluate((el) => {
        const view = el.closest('[data-testid="chat-scroll"]')!.getBoundingClientRect();
        const own = el.getBoundingClientRect();
        return own.bottom > view.top && own.top < view.bottom;
      }),
    ).toBe(true);
    expect(await gapToBottom()).toBeGreaterThan(2000);
    expect(await scroll().getAttribute('data-following')).toBe('false');
    await page.getByTestId('chat-jump-latest').waitFor({ state: 'visible' });
    await screenshot(page, 'longchat-03b-flung-settled');

    // Away and back: the rows seen before come back as boxes of the height they had, so nothing moves when they render.
    await page.evaluate(() => ((window as any).__boxes.length = 0));
    await page.mouse.wheel(0, 4000);
    await expect.poll(async () => (await boxes()).length).toBeGreaterThan(0);
    await settled();
    await page.evaluate(() => ((window as any).__boxes.length = 0));
    await page.mouse.wheel(0, -4000);
    const again = async () => (await boxes()).filter((b) => seen.has(b.id));
    await expect.poll(async () => (await again()).length).toBeGreaterThan(0);
    await settled();
    for (const b of await again()) expect(b.height, `the box of ${b.id}`).toBeCloseTo(seen.get(b.id)!, 0);
  });

  it('follows the output after a tool returned an image; scrolled up, a button counts what came and goes to the latest', async () => {
    const id = await conversationWith('pictures', (dir, id) => writeConversationLog(dir, id, longConversationMessages(200, 'helper')));
    await openRoute(page, `#/chat/${id}`, 'chat-pane');
    await page.locator('[data-message="m199"]').waitFor({ state: 'visible', timeout: 30_000 });
    const lines = Array.from({ length: 60 }, (_, i) => `Line ${i} of the description of the picture.\n\n`);
    // The answer after the picture waits for the test to have seen the picture (streamed at once, its lines would
    // carry the picture up out of view, and out of the DOM, before a busy machine's test looked), then holds after its
    // 21st line (its first frame is the role's) until the test has looked at the view.
    let seen!: () => void;
    let halfway!: () => void;
    const pictureSeen = new Promise<void>((resolve) => (seen = resolve));
    const held = new Promise<void>((resolve) => (halfway = resolve));
    provider.enqueue(
      { kind: 'reply', text: 'Drawing it.', toolCalls: [{ id: 'pic1', name: 'mcp_chat_picture', arguments: {} }] },
      {
        kind: 'reply',
        text: lines,
        delayMs: 40,
        gate: [
          { after: 1, open: pictureSeen },
          { after: 22, open: held },
        ],
      },
    );
    await send('Draw me a picture');
    const image = page.getByTestId('tool-call-pic1').getByTestId('tool-call-image');
    await image.waitFor({ timeout: 30_000 });
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalHeight)).toBe(160);
    seen();
    // The answer streams below the image; the view is at the bottom once the lines so far are in (it follows a frame
    // behind the rows it is given: a look while a line lands sees that line below), and again when it is stored.
    await expect.poll(() => page.getByTestId('message-streaming').textContent(), { timeout: 30_000 }).toContain('Line 20');
    await expect.poll(gapToBottom).toBeLessThan(60);
    expect(await scroll().getAttribute('data-following')).toBe('true');
    halfway();
    await expect.poll(phase).toBe('done');
    await expect.poll(gapToBottom).toBeLessThan(60);
    expect(await scroll().getAttribute('data-following')).toBe('true');
    await screenshot(page, 'longchat-04-followed-after-image');

    // The user scrolls up to read: new output no longer moves the view, and the button counts it.
    const box = (await scroll().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -1500);
    await expect.poll(() => scroll().getAttribute('data-following')).toBe('false');
    const shown = await topOfView();
    expect(shown.row).toBeDefined();
    provider.enqueue({ kind: 'reply', text: 'A short answer.' });
    // Sent from elsewhere (another window, the CLI): the view the user reads in holds still. A send from this view goes
    // to the latest instead (issue 45; test/ui/dailyChat.browser.test.ts).
    await api('chat.send', { conversationId: id, text: 'And now?' });
    await expect.poll(phase).toBe('done');
    const jump = page.getByTestId('chat-jump-latest');
    await expect.poll(() => jump.getAttribute('data-count')).toBe('2');
    // What the user reads stays where it was, within a few pixels (polled: the list puts a row measured above back in a frame).
    await expect.poll(async () => ((now) => now.row === shown.row && Math.abs(now.y - shown.y) < 5)(await topOfView())).toBe(true);
    await screenshot(page, 'longchat-05-jump-to-latest');
    await jump.click();
    await expect.poll(gapToBottom).toBeLessThan(60);
    await page.locator('[data-testid="message-assistant"]').filter({ hasText: 'A short answer.' }).waitFor({ state: 'visible' });
    expect(await jump.count()).toBe(0);
  });

  it('a press on a tool card while the answer under it streams in is one click: the view holds still until the button is up, then follows again', async () => {
    const id = await conversationWith('pressed', (dir, id) => writeConversationLog(dir, id, longConversationMessages(40, 'helper')));
    await openRoute(page, `#/chat/${id}`, 'chat-pane');
    await page.locator('[data-message="m39"]').waitFor({ state: 'visible', timeout: 30_000 });
    // The answer under the card stops after its first lines; the rest comes while the card's button is pressed.
    let pressed!: () => void;
    const gate = new Promise<void>((resolve) => (pressed = resolve));
    const lines = Array.from({ length: 60 }, (_, i) => `Line ${i} of the answer under the card.\n\n`);
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'held', name: 'mcp_chat_echo', arguments: { text: 'hold' } }] }, { kind: 'reply', text: lines, gate: { after: 5, open: gate } });
    await send('Echo, then write at length');
    // The answer rests at its gate (the role's frame, then lines 0 to 3) and the view at the bottom: from here nothing moves
    // the card until the gate opens, so the pointer goes down on its button (a line landing meanwhile would move it away).
    await expect.poll(() => page.getByTestId('message-streaming').textContent(), { timeout: 30_000 }).toContain('Line 3');
    await expect.poll(gapToBottom).toBeLessThanOrEqual(1);
    const toggle = page.getByTestId('tool-call-held').getByTestId('tool-call-toggle');
    // Whether a click reaches the card's button, noted as it comes: opened, the card grows and the view follows the output past it.
    await page.evaluate(() =>
      document.addEventListener('click', (event) => ((window as any).__clicked = (event.target as Element).closest('[data-testid="tool-call-held"] [data-testid="tool-call-toggle"]') !== null), true),
    );
    // And where the pointer really goes down, noted as it does.
    await page.evaluate(() =>
      document.addEventListener(
        'pointerdown',
        (event) => ((window as any).__downOn = (event.target as Element).closest('[data-testid="tool-call-held"] [data-testid="tool-call-toggle"]') !== null),
        true,
      ),
    );
    // Rows in view that wait for a later frame (rowBudget: a busy machine renders a few per frame) change height when they
    // render: none may be waiting before the pointer goes down, or one rendering then would move the button away.
    await expect.poll(() => page.locator('.chat-row-pending').count(), { timeout: 30_000 }).toBe(0);
    // The pointer goes to the button's middle once it has rested for ten frames (Playwright's hover checks two, and in a
    // CI run the button moved after that, so the press landed beside it), then down.
    const middle = await restingMiddle(toggle);
    await page.mouse.move(middle.x, middle.y);
    await page.mouse.down();
    // Released whatever happens: a button left down would hold the view still for the tests after this one.
    try {
      const held = (await toggle.boundingBox())!;
      const under = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.outerHTML.slice(0, 160), middle);
      expect(
        await page.evaluate(() => (window as any).__downOn),
        `the pointer went down on the card button (at y ${middle.y}, its middle now at ${held.y + held.height / 2}; under the pointer: ${under})`,
      ).toBe(true);
      pressed();
      // The whole answer comes in (screens of it) under the card: a view that followed it would take the button from under the pointer.
      await expect.poll(phase, { timeout: 30_000 }).toBe('done');
      await page.locator('[data-testid="message-assistant"]').filter({ hasText: 'Line 59' }).waitFor();
      const tops = await toggle.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().y));
      expect(tops, 'the button under the pointer is still there').toHaveLength(1);
      expect(Math.abs(tops[0]! - held.y)).toBeLessThan(2);
    } finally {
      pressed(); // and the answer let through, or it would stay open for them
      await page.mouse.up();
    }
    await expect.poll(() => page.evaluate(() => (window as any).__clicked)).toBe(true);
    // Up again, the view follows the output to its end.
    await expect.poll(gapToBottom).toBeLessThan(60);
    expect(await scroll().getAttribute('data-following')).toBe('true');
  });

  it('a call waiting for approval says so with its countdown, announced when scrolled away; approved, it runs and its time starts then', async () => {
    provider.enqueue(
      { kind: 'reply', text: 'Needs your yes.', toolCalls: [{ id: 'dz1', name: 'mcp_chat_danger', arguments: { what: 'clean the attic' } }] },
      { kind: 'reply', text: 'The attic is clean.' },
    );
    await send('Clean the attic');
    // The view follows to the question, on the call's card, which says it waits (no Cancel: nothing runs yet).
    const confirmation = page.getByTestId('tool-call-dz1').getByTestId('tool-call-question');
    await confirmation.waitFor({ state: 'visible', timeout: 30_000 });
    const card = page.locator('[data-testid="tool-call-dz1"]');
    await page.locator('[data-testid="tool-call-dz1"][data-status="awaiting"]').waitFor();
    expect(await card.getByTestId('tool-call-status').textContent()).toBe('waiting for your approval');
    expect(await card.getByTestId('call-cancel').count()).toBe(0);
    // Scrolled away from it, the question is announced on the button, which brings it back into view.
    const box = (await scroll().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -2500);
    const announced = page.getByTestId('chat-jump-approval');
    await announced.waitFor({ timeout: 20_000 });
    await screenshot(page, 'longchat-06a-approval-announced');
    await announced.click();
    await confirmation.waitFor({ state: 'visible' });
    await expect
      .poll(() =>
        confirmation.evaluate((el) => {
          const box = el.closest('[data-testid="chat-scroll"]')!.getBoundingClientRect();
          const own = el.getBoundingClientRect();
          return own.top >= box.top - 1 && own.bottom <= box.bottom + 1;
        }),
      )
      .toBe(true);

    // The countdown runs: two seconds pass while the user thinks (waited for on the page, not slept).
    const seconds = async () => Number(/(\d+) s/.exec((await card.getByTestId('confirm-countdown').textContent()) ?? '')?.[1]);
    const first = await seconds();
    await expect.poll(seconds, { timeout: 30_000 }).toBeLessThanOrEqual(first - 2);
    await screenshot(page, 'longchat-06-awaiting-approval');
    await confirmation.getByTestId('confirm-approve').press('Enter');
    await page.locator('[data-testid="tool-call-dz1"][data-status="ok"]').waitFor({ timeout: 30_000 });
    await expect.poll(phase).toBe('done');
    // Its time is the tool's (a few ms), not the two seconds and more the user took.
    const ms = Number(/(\d+) ms/.exec((await card.getByTestId('tool-call-duration').textContent()) ?? '')?.[1]);
    expect(ms).toBeLessThan(2000);
    await screenshot(page, 'longchat-07-approved');
  });

  it('a conversation file with a torn last line and a message this version rejects opens with notices, the rest shown, the file kept', async () => {
    const messages = longConversationMessages(12, 'helper');
    let file = '';
    const id = await conversationWith('damaged', (dir, id) => {
      file = writeConversationLog(dir, id, messages);
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines[3] = JSON.stringify({ ...messages[3], status: 'pondering' });
      fs.writeFileSync(file, `${lines.slice(0, 12).join('\n')}\n${JSON.stringify({ id: 'm12', parentId: 'm11', at: 1, role: 'user', text: 'cut' }).slice(0, 30)}`);
    });
    const written = fs.readFileSync(file, 'utf8');
    await openRoute(page, `#/chat/${id}`, 'chat-pane');
    await page.locator('[data-message="m11"]').waitFor({ state: 'visible', timeout: 30_000 });
    const notices = page.getByTestId('chat-notice');
    await expect.poll(() => notices.count()).toBe(2);
    expect(await notices.allTextContents()).toEqual([expect.stringContaining('cut short'), expect.stringContaining('message m3 (line 4) is not a message this version reads')]);
    // Above the rejected answer, the branch goes on: its first question is there, and the answer after it.
    await wheelUpUntil('[data-message="m0"]', 50);
    expect(await page.locator('[data-message="m4"]').count()).toBe(1);
    expect(await page.locator('[data-message="m3"]').count()).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(written);
    await screenshot(page, 'longchat-08-damaged-file');
  });
});
