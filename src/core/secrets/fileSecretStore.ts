import type { KeyStore } from '../../shared/models.js';
import type { Logger } from '../ports.js';
import { SecretFile } from './secretFile.js';
import { checkSecretName, type SecretStore } from './secretStore.js';

/** How a value is kept in the file: as it is (the file's permissions protect it), or encrypted (the desktop app's safeStorage). */
export interface SecretCodec {
  encode(value: string): string;
  /** Throws a SecretError when the stored text cannot be turned back into the value here. */
  decode(stored: string): string;
}

const plain: SecretCodec = { encode: (value) => value, decode: (stored) => stored };

/**
 * Keys in a file only the user can read (`$CHATOS_HOME/chatos/secrets.json`
 * for `chatos serve` and the CLI). Every call reads the file again, so a key
 * another process added or removed is seen at once.
 */
export class FileSecretStore implements SecretStore {
  private readonly secrets: SecretFile;
  private readonly codec: SecretCodec;
  readonly location: KeyStore;

  /** `kind`: say `os-keychain` when the codec encrypts with it. */
  constructor(file: string, options: { logger: Logger; codec?: SecretCodec; kind?: KeyStore['kind'] }) {
    this.secrets = new SecretFile(file, options.logger);
    this.codec = options.codec ?? plain;
    this.location = { kind: options.kind ?? 'private-file', file };
  }

  get file(): string {
    return this.secrets.file;
  }

  async get(name: string): Promise<string | undefined> {
    checkSecretName(name);
    const stored = this.secrets.read().get(name);
    return stored === undefined ? undefined : this.codec.decode(stored);
  }

  async has(name: string): Promise<boolean> {
    checkSecretName(name);
    return this.secrets.read().has(name);
  }

  async set(name: string, value: string): Promise<void> {
    checkSecretName(name);
    const encoded = this.codec.encode(value);
    await this.secrets.update((entries) => void entries.set(name, encoded));
  }

  async delete(name: string): Promise<boolean> {
    checkSecretName(name);
    if (!this.secrets.read().has(name)) return false;
    return this.secrets.update((entries) => entries.delete(name));
  }
}
