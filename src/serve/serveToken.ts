import type { Logger } from '../core/facades/setup.js';
import { SecretFile } from '../core/facades/secrets.js';
import { newToken } from './auth.js';

const ENTRY = 'token';
/** What newToken() makes: 32 bytes, base64url. Anything else in the file is replaced. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * One `chatos serve` token per data home, kept across restarts, so a tab
 * left open reconnects after the server is started again (its cookie still
 * holds the token). Kept in a file only the user can read (SecretFile:
 * 0600, never through a link, refused when others may read it); `rotate`
 * (`--new-token`) replaces it, and every tab holding the old one is refused.
 */
export class ServeToken {
  private readonly file: SecretFile;

  constructor(file: string, logger: Logger) {
    this.file = new SecretFile(file, logger);
  }

  get path(): string {
    return this.file.file;
  }

  /** The stored token, or undefined when none was made yet (nothing is written). */
  peek(): string | undefined {
    const stored = this.file.read().get(ENTRY);
    return stored !== undefined && TOKEN_SHAPE.test(stored) ? stored : undefined;
  }

  /** The stored token, made (and saved) when there is none or `rotate` asks for a new one. */
  async obtain(rotate = false): Promise<string> {
    return this.file.update((entries) => {
      const stored = entries.get(ENTRY);
      if (!rotate && stored !== undefined && TOKEN_SHAPE.test(stored)) return stored;
      const token = newToken();
      entries.set(ENTRY, token);
      return token;
    });
  }
}

/** What `chatos serve` prints and the url that `--print-url` gives for a port. */
export const serveUrl = (port: number, token: string) => `http://127.0.0.1:${port}/?token=${token}`;
