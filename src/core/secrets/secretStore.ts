import type { KeyStore } from '../../shared/models.js';

/**
 * Where API keys are kept (docs/rules/security.md#keys). The core reads and writes keys
 * only through this port; which implementation a process gets is the face's
 * choice: `chatos serve` and the CLI keep them in a file only the user can
 * read (FileSecretStore), the desktop app encrypts them with the OS keychain
 * through Electron's safeStorage (electron/safeStorageSecrets.ts).
 *
 * A value never leaves through anything but `get`: no error, log line or
 * location of a store carries one.
 */
export interface SecretStore {
  /** Where keys are kept, for the CLI and the Models page to say. */
  readonly location: KeyStore;
  get(name: string): Promise<string | undefined>;
  has(name: string): Promise<boolean>;
  set(name: string, value: string): Promise<void>;
  /** True when there was a value to delete. */
  delete(name: string): Promise<boolean>;
}

export type SecretErrorCode =
  /** The file is a link, not a regular file, readable by others or not the user's: it is not read. */
  | 'SECRETS_UNSAFE'
  /** The file is there but is not a secrets file (not JSON, wrong shape). */
  | 'SECRETS_UNREADABLE'
  /** Writing failed (read-only folder, full disk, lock held too long). */
  | 'SECRETS_WRITE_FAILED'
  /** A value cannot be encrypted or decrypted here (no keychain, a value from another machine). */
  | 'SECRETS_UNAVAILABLE'
  | 'SECRET_NAME_INVALID';

export class SecretError extends Error {
  override readonly name = 'SecretError';

  constructor(
    readonly code: SecretErrorCode,
    message: string,
    /** How to fix it, as an instruction. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

const NAME = /^[a-z]+:[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** Secret names are ours (`model:<id>`, `mcp:<name>`); anything else is a bug, refused before it reaches a file. */
export function checkSecretName(name: string): void {
  if (!NAME.test(name)) throw new SecretError('SECRET_NAME_INVALID', `"${name}" is not a secret name (kind:id)`);
}

/** The secret holding a model entry's stored key. */
export const modelKeyName = (modelId: string) => `model:${modelId}`;

/** The secret holding an MCP server's stored `env` or `headers` value (mcp.yaml `{ secret: NAME }`). */
export const mcpValueSecretName = (name: string) => `mcp:${name}`;
