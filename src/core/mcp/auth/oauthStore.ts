import type { SecretStore } from '../../secrets/secretStore.js';
import { OAuthRecordSchema, oauthSecretName, type OAuthRecord } from './oauthRecord.js';

/**
 * Each remote server's sign-in record, in the host's key store (the 0600
 * secrets file for serve and the CLI, safeStorage in the desktop app). A
 * record is read again on every use, so a sign-in in the CLI is seen by a
 * running host at its next call.
 */
export class OAuthStore {
  constructor(private readonly secrets: SecretStore) {}

  /** The record for this server at this url; undefined when none, or when it was made for another url. */
  async read(serverId: string, serverUrl: string): Promise<OAuthRecord | undefined> {
    const text = await this.secrets.get(oauthSecretName(serverId));
    if (text === undefined) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return undefined;
    }
    const parsed = OAuthRecordSchema.safeParse(json);
    if (!parsed.success || parsed.data.serverId !== serverId || parsed.data.serverUrl !== serverUrl) return undefined;
    return parsed.data;
  }

  /** Reads, changes and writes the record (a new one when there is none for this url). */
  async update(serverId: string, serverUrl: string, change: (record: OAuthRecord) => OAuthRecord): Promise<OAuthRecord> {
    const current = (await this.read(serverId, serverUrl)) ?? { version: 1 as const, serverId, serverUrl };
    const next = change(current);
    await this.secrets.set(oauthSecretName(serverId), JSON.stringify(next));
    return next;
  }

  /** Forgets the server's tokens and registration. True when there was something to forget. */
  async remove(serverId: string): Promise<boolean> {
    return this.secrets.delete(oauthSecretName(serverId));
  }
}
