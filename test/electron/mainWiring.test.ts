import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { APP_SCHEME, PRIVILEGED_SCHEMES, UI_APP_SCHEME, VIEW_SCHEME } from '../../electron/appUrls.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * main.ts cannot run here (no Electron binary), so its wiring is read from
 * its syntax tree: the checks that keep the renderer's only door to the
 * host narrow stay in place.
 */
const electronDir = path.join(repoRoot, 'electron');

function calls(file: string): { callee: string; args: string[] }[] {
  const text = fs.readFileSync(path.join(electronDir, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { callee: string; args: string[] }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) found.push({ callee: node.expression.getText(source), args: node.arguments.map((a) => a.getText(source)) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('main.ts wiring', () => {
  const main = calls('main.ts');

  it('opens exactly one IPC channel, through the sender-checking handler', () => {
    const ipc = main.filter((c) => /^ipcMain\./.test(c.callee));
    expect(ipc.map((c) => c.callee)).toEqual(['ipcMain.handle']);
    expect(ipc[0]!.args[0]).toBe('API_CHANNEL');
    expect(ipc[0]!.args[1]).toMatch(/^createIpcHandler\(\{ api: desktop\.api, isOurFrame: mainFrameCheck\(/);
    // No other electron/ file talks IPC from the main side.
    for (const file of fs.readdirSync(electronDir).filter((n) => n.endsWith('.ts') && n !== 'main.ts')) {
      expect(
        calls(file).filter((c) => /ipcMain\./.test(c.callee)),
        file,
      ).toEqual([]);
    }
  });

  it('denies every permission, guards every web contents, and registers the privileged schemes', () => {
    const find = (callee: string) => main.filter((c) => c.callee === callee);
    expect(find('session.defaultSession.setPermissionRequestHandler').map((c) => c.args[0])).toEqual(['(_contents, _permission, callback) => callback(false)']);
    expect(find('session.defaultSession.setPermissionCheckHandler').map((c) => c.args[0])).toEqual(['() => false']);
    expect(find('app.on').map((c) => c.args[0])).toEqual(expect.arrayContaining(["'web-contents-created'", "'before-quit'", "'window-all-closed'", "'second-instance'"]));
    expect(find('app.on').find((c) => c.args[0] === "'web-contents-created'")?.args[1]).toBe('(_event, contents) => guardContents(contents)');
    expect(find('protocol.registerSchemesAsPrivileged').map((c) => c.args[0])).toEqual(['PRIVILEGED_SCHEMES']);
    expect(find('app.requestSingleInstanceLock')).toHaveLength(1);
    expect(find('app.enableSandbox')).toHaveLength(1);
  });

  it("hands a .mcpb the system opens to the host: open-file (macOS), a second start's argv and the first argv (Windows, Linux)", () => {
    const find = (callee: string) => main.filter((c) => c.callee === callee);
    const on = (event: string) => find('app.on').find((c) => c.args[0] === `'${event}'`)?.args[1] ?? '';
    expect(on('open-file')).toMatch(/^\(event, file\) => \{\s*event\.preventDefault\(\);\s*openBundle\(file, process\.cwd\(\)\);/);
    expect(on('second-instance')).toMatch(/^\(_event, argv, cwd\) => \{\s*const file = bundleArgOf\(argv, ARGV_SKIP\);\s*if \(file !== undefined\) return openBundle\(file, cwd\);/);
    expect(find('bundleArgOf').map((c) => c.args)).toEqual([
      ['process.argv', 'ARGV_SKIP'],
      ['argv', 'ARGV_SKIP'],
    ]);
    // The host reads the file (a regular .mcpb only) and tells the window; main.ts never reads it itself.
    expect(find('desktopHost.api.openBundle').map((c) => c.args)).toEqual([['file', 'cwd']]);
    expect(find('app.requestSingleInstanceLock')).toHaveLength(1);
  });

  it("picks a plugin folder with the system's dialog, folders only, and hands the host only the path", () => {
    const find = (callee: string) => main.filter((c) => c.callee === callee);
    expect(find('dialog.showOpenDialog').map((c) => c.args.at(-1))).toEqual(['options', 'options']);
    const text = fs.readFileSync(path.join(electronDir, 'main.ts'), 'utf8');
    expect(text).toContain("const options = { properties: ['openDirectory' as const] };");
    expect(text).toMatch(/pickFolder: async \(\) => \{[\s\S]{0,400}?return picked\.canceled \? undefined : picked\.filePaths\[0\];/);
  });

  it('handles every privileged scheme with its desktop handler, and nothing else', () => {
    const handled = main.filter((c) => c.callee === 'protocol.handle').map((c) => c.args);
    expect(handled).toEqual([
      ['APP_SCHEME', 'desktop.appProtocol'],
      ['UI_APP_SCHEME', 'desktop.uiAppProtocol'],
      ['VIEW_SCHEME', 'desktop.appViewProtocol'],
    ]);
    const names: Record<string, string> = { APP_SCHEME, UI_APP_SCHEME, VIEW_SCHEME };
    expect(handled.map(([name]) => names[name!])).toEqual(PRIVILEGED_SCHEMES.map((s) => s.scheme));
  });

  it('sends host events to the window on the event channel only', () => {
    const sends = main.filter((c) => /webContents\.send$/.test(c.callee));
    expect(sends.map((c) => c.args[0])).toEqual(['EVENT_CHANNEL']);
  });

  it("reads the login shell's PATH into the host's environment before the host starts (issue 19)", () => {
    const order = main.map((c) => c.callee);
    expect(main.filter((c) => c.callee === 'adoptLoginShellPath').map((c) => c.args)).toEqual([['process.env']]);
    expect(order.indexOf('adoptLoginShellPath')).toBeLessThan(order.indexOf('startDesktopHost'));
  });

  it('gives the host the keychain-backed key store (safeStorage), never the plain file by default', () => {
    expect(main.filter((c) => c.callee === 'desktopSecretStore').map((c) => c.args)).toEqual([['safeStorage', 'home', 'logger']]);
  });
});
