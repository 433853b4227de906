import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { BundleConfigValuesSchema, type BundleSignature } from '../../shared/bundles.js';
import type { DataHome } from '../dataHome.js';
import { bundleSecretName } from '../plugins/bundles/bundlePlugin.js';
import { writeFileAtomic } from '../store/dbFile.js';
import { mcpValueSecretName, type SecretStore } from '../secrets/secretStore.js';

/**
 * The host's record of an installed MCP Bundle (docs/using/bundles.md#updates): the plain settings an update keeps,
 * the keys of its sensitive settings whose values are in the key store, and who signed the installed copy. It lives in
 * the host's own folder (`DataHome.bundleRecordFile`), never in the bundle's data folder, which its server and backend
 * may write: what the next update keeps is the host's word, not the bundle's.
 */
const BundleRecordSchema = z.object({
  values: BundleConfigValuesSchema,
  secrets: z.array(z.string()),
  /** The installed copy's certificate fingerprint; null when it was unsigned. */
  signer: z.string().nullable(),
  /** The installed copy's manifest name and author: what an unsigned update is compared with. Absent in records written before. */
  bundle: z.object({ name: z.string(), author: z.string() }).optional(),
});
export type BundleRecord = z.infer<typeof BundleRecordSchema>;

/** Which bundle an unsigned copy says it is: its manifest's name and its author's name. A claim, compared, never proof. */
export const bundleIdentityOf = (manifest: { name: string; author: { name: string } }): NonNullable<BundleRecord['bundle']> => ({ name: manifest.name, author: manifest.author.name });

/** Who signed a bundle, as the record compares it: the certificate's fingerprint, whatever name it claims. */
export const signerOf = (signature: BundleSignature): string | null => (signature.status === 'unsigned' ? null : signature.fingerprint);

/** The record of `pluginId`; undefined when there is none (or it is not one the host wrote). */
export function readBundleRecord(home: Pick<DataHome, 'bundleRecordFile'>, pluginId: string): BundleRecord | undefined {
  try {
    const parsed = BundleRecordSchema.safeParse(JSON.parse(fs.readFileSync(home.bundleRecordFile(pluginId), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeBundleRecord(home: Pick<DataHome, 'bundleRecordFile'>, pluginId: string, record: BundleRecord): void {
  const file = home.bundleRecordFile(pluginId);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, Buffer.from(`${JSON.stringify(record, null, 2)}\n`));
}

/** Deletes the stored values of these keys of the bundle (the key store's `mcp:mcpb.<id>.<key>`). */
export async function deleteBundleSecrets(secrets: Pick<SecretStore, 'delete'>, pluginId: string, keys: readonly string[]): Promise<void> {
  for (const key of keys) await secrets.delete(mcpValueSecretName(bundleSecretName(pluginId, key)));
}

/**
 * After an uninstall: the bundle's stored values and its record go, so no later plugin of that id (or any other, by
 * naming them) finds them, and a fresh install starts from nothing. A plugin that was no bundle has no record.
 */
export async function forgetBundle(home: Pick<DataHome, 'bundleRecordFile'>, secrets: Pick<SecretStore, 'delete'>, pluginId: string): Promise<void> {
  const record = readBundleRecord(home, pluginId);
  if (record) await deleteBundleSecrets(secrets, pluginId, record.secrets);
  fs.rmSync(home.bundleRecordFile(pluginId), { force: true });
}
