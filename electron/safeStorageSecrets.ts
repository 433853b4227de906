import * as path from 'node:path';
import type { DataHome } from '../src/core/dataHome.js';
import type { Logger } from '../src/core/ports.js';
import { FileSecretStore, type SecretCodec } from '../src/core/secrets/fileSecretStore.js';
import { SecretError, type SecretStore } from '../src/core/secrets/secretStore.js';

/** The part of Electron's `safeStorage` the desktop uses (main.ts passes Electron's own; tests a TestSafeStorage). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: `basic_text` means no keyring is there and "encryption" uses a fixed key. */
  getSelectedStorageBackend?(): string;
}

/** Values encrypted by the OS keychain (Keychain, DPAPI, libsecret/kwallet), stored base64. */
export function safeStorageCodec(safeStorage: SafeStorageLike): SecretCodec {
  return {
    encode: (value) => safeStorage.encryptString(value).toString('base64'),
    decode: (stored) => {
      try {
        return safeStorage.decryptString(Buffer.from(stored, 'base64'));
      } catch {
        throw new SecretError(
          'SECRETS_UNAVAILABLE',
          "a stored key could not be decrypted with this system's keychain (it was stored on another machine or by another user)",
          'enter the key again on the Models page',
        );
      }
    },
  };
}

/**
 * The desktop app's keys: encrypted with the OS keychain through safeStorage
 * in `$CHATOS_HOME/chatos/secrets.safe.json` (itself a file only the user
 * can read). Where no keychain serves (Linux without a keyring: the
 * `basic_text` backend), the keys go where `chatos serve` and the CLI keep
 * theirs, a file only the user can read, and the log says so.
 */
export function desktopSecretStore(safeStorage: SafeStorageLike, home: DataHome, logger: Logger): SecretStore {
  const backend = safeStorage.getSelectedStorageBackend?.();
  if (safeStorage.isEncryptionAvailable() && backend !== 'basic_text') {
    return new FileSecretStore(path.join(home.hostDir, 'secrets.safe.json'), { logger, codec: safeStorageCodec(safeStorage), kind: 'os-keychain' });
  }
  logger.warn(`no OS keychain is available${backend ? ` (safeStorage backend: ${backend})` : ''}: API keys are kept in ${home.secretsFile}, a file only you can read`);
  return new FileSecretStore(home.secretsFile, { logger });
}
