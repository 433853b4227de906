import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { desktopSecretStore, type SafeStorageLike } from '../../electron/safeStorageSecrets.js';
import { DataHome } from '../../src/core/dataHome.js';
import { SecretError } from '../../src/core/secrets/secretStore.js';
import { tempDir } from '../helpers/tempDir.js';

/** safeStorage's contract with real encryption (AES-256-GCM under a key only this instance has), as the OS keychain gives it. */
class TestSafeStorage implements SafeStorageLike {
  private readonly key = randomBytes(32);
  constructor(
    private readonly backend: string = 'gnome_libsecret',
    private readonly available = true,
  ) {}
  isEncryptionAvailable = () => this.available;
  getSelectedStorageBackend = () => this.backend;
  encryptString(plainText: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }
  decryptString(encrypted: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, encrypted.subarray(0, 12));
    decipher.setAuthTag(encrypted.subarray(12, 28));
    return Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8');
  }
}

const warnings: string[] = [];
const logger = { info() {}, warn: (m: string) => void warnings.push(m), error() {} };

describe("the desktop app's keys (Electron safeStorage)", () => {
  it('are encrypted with the keychain in secrets.safe.json: the key is nowhere in the file', async () => {
    const home = new DataHome(tempDir());
    const safe = new TestSafeStorage();
    const store = desktopSecretStore(safe, home, logger);
    expect(store.location).toEqual({ kind: 'os-keychain', file: path.join(home.hostDir, 'secrets.safe.json') });
    await store.set('model:gpt', 'sk-desktop-PLAINTEXT');
    const file = path.join(home.hostDir, 'secrets.safe.json');
    expect(fs.readFileSync(file, 'utf8')).not.toContain('PLAINTEXT');
    expect(fs.existsSync(home.secretsFile)).toBe(false);
    expect(await store.get('model:gpt')).toBe('sk-desktop-PLAINTEXT');
    // The same keychain in a later run reads it back.
    expect(await desktopSecretStore(safe, home, logger).get('model:gpt')).toBe('sk-desktop-PLAINTEXT');
  });

  it('a value another keychain encrypted is SECRETS_UNAVAILABLE with the fix, not garbage', async () => {
    const home = new DataHome(tempDir());
    await desktopSecretStore(new TestSafeStorage(), home, logger).set('model:gpt', 'sk-1');
    const error = await desktopSecretStore(new TestSafeStorage(), home, logger)
      .get('model:gpt')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretError);
    expect((error as SecretError).code).toBe('SECRETS_UNAVAILABLE');
    expect((error as SecretError).hint).toContain('enter the key again');
  });

  it('without a keychain (Linux basic_text, or none) falls back to the file only the user can read, and says so', async () => {
    for (const safe of [new TestSafeStorage('basic_text'), new TestSafeStorage('unknown', false)]) {
      const home = new DataHome(tempDir());
      warnings.length = 0;
      const store = desktopSecretStore(safe, home, logger);
      await store.set('model:gpt', 'sk-file');
      expect(JSON.parse(fs.readFileSync(home.secretsFile, 'utf8')).secrets['model:gpt']).toBe('sk-file');
      expect(warnings.join('\n')).toContain(`API keys are kept in ${home.secretsFile}, a file only you can read`);
    }
  });
});
