import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServedUi, screenshot, type ServeProcess } from '../helpers/browser.js';

/**
 * The built-in Git page in Chromium against chatos serve, on a real
 * repository: added by its path, its changes listed, a file staged and
 * committed with a message, a branch checked out after the second click,
 * a bad branch name refused with git's reason shown. Each step is checked
 * in the repository with git itself; and the WSL page off Windows.
 * Screenshots: test-output/screenshots/git-page.png, wsl-page.png.
 */
let ui: Awaited<ReturnType<typeof openServedUi>>;
let serve: ServeProcess;
let page: Page;
let home: string;
let repo: string;

const gitIn = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-git-'));
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-git-repo-'));
  gitIn('init', '--quiet', '--initial-branch=main');
  gitIn('config', 'user.name', 'Tester');
  gitIn('config', 'user.email', 'tester@example.com');
  fs.writeFileSync(path.join(repo, 'README.md'), 'hello\n');
  gitIn('add', 'README.md');
  gitIn('commit', '--quiet', '-m', 'first commit');
  gitIn('branch', 'feature');
  fs.writeFileSync(path.join(repo, 'README.md'), 'hello\nfrom the page\n');
  fs.writeFileSync(path.join(repo, 'notes.txt'), 'a new file\n');
  ui = await openServedUi(['--home', home, '--no-watch']);
  ({ serve, page } = ui);
}, 120_000);

afterAll(async () => {
  expect(await ui?.close()).toBe(0);
  for (const dir of [home, repo]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the Git page', () => {
  it('adds a repository, stages, commits and checks out through its backend', async () => {
    await page.goto(`${serve.url}#/apps/chatos.git/git`);
    await page.getByTestId('page-uiapp').waitFor({ timeout: 20_000 });
    const frame = page.frameLocator('[data-testid="uiapp-frame"]');
    await frame.getByTestId('git-path').fill(repo);
    await frame.getByTestId('git-add').click();

    const unstaged = frame.getByTestId('git-unstaged');
    await expect.poll(() => unstaged.textContent(), { timeout: 20_000 }).toContain('notes.txt');
    expect(await unstaged.textContent()).toContain('README.md');
    await expect.poll(() => frame.getByTestId('git-diff').textContent(), { timeout: 20_000 }).toContain('+from the page');
    // Coloured as the window's colours say: an added line in the success colour, a file's header apart.
    const added = frame.getByTestId('git-diff').locator('[data-kind="add"]').filter({ hasText: '+from the page' });
    const colours = await added.evaluate((line) => {
      const resolved = (value: string) => {
        const probe = document.createElement('span');
        probe.style.color = value;
        document.body.append(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
      };
      return { line: getComputedStyle(line).color, success: resolved('var(--chatos-color-success)'), text: resolved('var(--chatos-color-text)') };
    });
    expect(colours.line).toBe(colours.success);
    expect(colours.success).not.toBe(colours.text);
    expect(await frame.getByTestId('git-diff').locator('[data-kind="file"]').first().textContent()).toMatch(/^diff --git /);
    await expect.poll(() => frame.getByTestId('git-log').textContent()).toMatch(/\* [0-9a-f]+ .* first commit/);
    expect(await frame.getByTestId('git-branch').textContent()).toContain('On branch main');

    // Stage one file, then commit it with a message.
    await frame.locator('[data-testid="git-file-unstaged"][data-path="notes.txt"] [data-testid="git-stage-file"]').click();
    await expect.poll(() => frame.getByTestId('git-staged').textContent(), { timeout: 20_000 }).toContain('notes.txt');
    expect(gitIn('diff', '--cached', '--name-only')).toBe('notes.txt');
    await frame.getByTestId('git-commit-message').fill('Add notes from the page');
    await frame.getByTestId('git-commit').click();
    await expect.poll(() => frame.getByTestId('git-message').textContent(), { timeout: 20_000 }).toContain('Committed');
    expect(gitIn('log', '-1', '--format=%s')).toBe('Add notes from the page');
    await expect.poll(() => frame.getByTestId('git-log').textContent()).toContain('Add notes from the page');
    await screenshot(page, 'git-page');

    // A branch name with shell characters is refused, with the reason on the page.
    await frame.getByTestId('git-new-branch').fill(';rm -rf x');
    await frame.getByTestId('git-create-branch').click();
    await expect.poll(() => frame.getByTestId('git-message').textContent(), { timeout: 20_000 }).toContain('cannot have');
    expect(gitIn('branch', '--format=%(refname:short)')).toBe('feature\nmain');

    // Checkout needs a second click; the README change goes along to the other branch.
    const checkout = frame.locator('[data-testid="git-branch-row"][data-branch="feature"] [data-testid="git-checkout"]');
    await checkout.click();
    await expect.poll(() => checkout.textContent()).toContain('Click again');
    expect(gitIn('branch', '--show-current')).toBe('main');
    await checkout.click();
    await expect.poll(() => frame.getByTestId('git-branch').textContent(), { timeout: 20_000 }).toContain('On branch feature');
    expect(gitIn('branch', '--show-current')).toBe('feature');
  });

  it.skipIf(process.platform === 'win32')('the WSL page says WSL is Windows-only and offers nothing to run', async () => {
    await page.goto(`${serve.url}#/apps/chatos.wsl/wsl`);
    await page.getByTestId('page-uiapp').waitFor({ timeout: 20_000 });
    const frame = page.frameLocator('[data-testid="uiapp-frame"]');
    await expect.poll(() => frame.getByTestId('wsl-message').textContent(), { timeout: 20_000 }).toContain('WSL is available only on Windows');
    expect(await frame.getByTestId('wsl-distribution').count()).toBe(0);
    await screenshot(page, 'wsl-page');
  });
});
