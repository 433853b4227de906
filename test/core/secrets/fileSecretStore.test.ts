import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/ports.js';
import { FileSecretStore } from '../../../src/core/secrets/fileSecretStore.js';
import { SecretError } from '../../../src/core/secrets/secretStore.js';
import { tempDir } from '../../helpers/tempDir.js';

const POSIX = process.platform !== 'win32';

function world() {
  const home = tempDir();
  const dir = path.join(home, 'chatos');
  const file = path.join(dir, 'secrets.json');
  return { home, dir, file, store: new FileSecretStore(file, { logger: silentLogger }) };
}

async function secretError(promise: Promise<unknown>): Promise<SecretError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SecretError);
  return error as SecretError;
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('FileSecretStore: keys in a file only the user can read', () => {
  it('sets, reads, lists and deletes keys; a new store (another process) sees them', async () => {
    const { file, store } = world();
    expect(await store.get('model:a')).toBeUndefined();
    await store.set('model:a', 'sk-aaa');
    await store.set('model:b', 'sk-bbb');
    expect(await store.get('model:a')).toBe('sk-aaa');
    expect(await store.has('model:b')).toBe(true);
    const other = new FileSecretStore(file, { logger: silentLogger });
    expect(await other.get('model:b')).toBe('sk-bbb');
    expect(await other.delete('model:a')).toBe(true);
    expect(await other.delete('model:a')).toBe(false);
    expect(await store.has('model:a')).toBe(false);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ version: 1, secrets: { 'model:b': 'sk-bbb' } });
  });

  it.runIf(POSIX)('creates the file 0600 in a 0700 folder, and tightens a looser folder it owns', async () => {
    const { dir, file, store } = world();
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    await store.set('model:a', 'sk-aaa');
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
    // Rewritten by rename: still 0600, and no temp file is left beside it.
    await store.set('model:b', 'sk-bbb');
    expect(modeOf(file)).toBe(0o600);
    expect(fs.readdirSync(dir).sort()).toEqual(['secrets.json']);
  });

  it("writers at once (the app and the CLI) never lose each other's keys", async () => {
    const { file } = world();
    const stores = Array.from({ length: 6 }, () => new FileSecretStore(file, { logger: silentLogger }));
    await Promise.all(stores.map((s, i) => s.set(`model:m${i}`, `key-${i}`)));
    const entries = JSON.parse(fs.readFileSync(file, 'utf8')).secrets;
    expect(Object.keys(entries).sort()).toEqual(['model:m0', 'model:m1', 'model:m2', 'model:m3', 'model:m4', 'model:m5']);
  });

  it.runIf(POSIX)('refuses a file others may read, saying how to fix it, and does not overwrite it', async () => {
    const { file, store } = world();
    await store.set('model:a', 'sk-aaa');
    fs.chmodSync(file, 0o644);
    const error = await secretError(store.get('model:a'));
    expect(error.code).toBe('SECRETS_UNSAFE');
    expect(error.message).toContain('other users may read it (mode 0644)');
    expect(error.hint).toContain(`chmod 600 ${file}`);
    expect((await secretError(store.set('model:b', 'x'))).code).toBe('SECRETS_UNSAFE');
    expect(fs.readFileSync(file, 'utf8')).not.toContain('model:b');
  });

  it.runIf(POSIX)('refuses a symbolic link, even to a private file', async () => {
    const { dir, file, store } = world();
    const real = path.join(dir, 'elsewhere.json');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(real, JSON.stringify({ version: 1, secrets: { 'model:a': 'planted' } }), { mode: 0o600 });
    fs.symlinkSync(real, file);
    const error = await secretError(store.get('model:a'));
    expect(error.code).toBe('SECRETS_UNSAFE');
    expect(error.message).toContain('symbolic link');
    expect(error.hint).toContain(`rm ${file}`);
  });

  it.runIf(POSIX)('refuses a FIFO or a folder at its path without hanging', async () => {
    const { dir, file, store } = world();
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('mkfifo', ['-m', '600', file]);
    expect((await secretError(store.get('model:a'))).message).toContain('not a regular file');
    fs.rmSync(file);
    fs.mkdirSync(file, { mode: 0o700 });
    expect((await secretError(store.get('model:a'))).code).toBe('SECRETS_UNSAFE');
  });

  it.runIf(POSIX && process.getuid?.() === 0)('refuses a file that belongs to another user', async () => {
    const { file, store } = world();
    await store.set('model:a', 'sk-aaa');
    fs.chownSync(file, 65534, 65534);
    expect((await secretError(store.get('model:a'))).message).toContain('belongs to another user');
  });

  it('a broken file is reported without quoting what it holds, and is never overwritten', async () => {
    const { dir, file, store } = world();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, '{"version": 1, "secrets": {"model:a": "sk-live-LEAKME"', { mode: 0o600 });
    const error = await secretError(store.get('model:a'));
    expect(error.code).toBe('SECRETS_UNREADABLE');
    expect(`${error.message} ${error.hint}`).not.toContain('LEAKME');
    expect(error.hint).toContain(`mv ${file} ${file}.broken`);
    await secretError(store.set('model:b', 'x'));
    expect(fs.readFileSync(file, 'utf8')).toContain('LEAKME');
    // A value of the wrong type is not quoted either.
    fs.writeFileSync(file, JSON.stringify({ version: 1, secrets: { 'model:a': ['sk-live-ARRAYLEAK'] } }), { mode: 0o600 });
    expect((await secretError(store.get('model:a'))).message).not.toContain('ARRAYLEAK');
  });

  it('names are ours (kind:id): a prototype name or anything else is refused, and stored names are plain data', async () => {
    const { file, store } = world();
    expect((await secretError(store.get('__proto__'))).code).toBe('SECRET_NAME_INVALID');
    expect((await secretError(store.set('model:../x', 'v'))).code).toBe('SECRET_NAME_INVALID');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version": 1, "secrets": {"__proto__": "p", "model:constructor": "c"}}', { mode: 0o600 });
    expect(await store.get('model:constructor')).toBe('c');
    expect(await store.has('model:toString')).toBe(false);
  });
});
