import { CollectionSchema, type KnowledgeBase, type KnowledgeEngineSettings } from '../../../shared/knowledge.js';
import type { SecretStore } from '../../secrets/secretStore.js';
import type { KnowledgeEngine } from '../knowledgeEngine.js';
import { KnowledgeError } from '../knowledgeError.js';

/** The key store's name for a base's server password (never in base.json, never in a message). */
export const engineSecretName = (id: string) => `kb:${id}`;

/** The settings base.json keeps for a base on a server: the collection defaults to the base's id, when that fits a table name. */
export function engineSettings(id: string, input: { kind: 'postgres'; url: string; collection?: string | undefined }): KnowledgeEngineSettings {
  const collection = input.collection ?? id;
  if (!CollectionSchema.safeParse(collection).success)
    throw new KnowledgeError('KB_INVALID', `the knowledge base id "${id}" is too long to name its tables on the server`, 'give a shorter collection name (--collection, at most 48 characters)');
  return { kind: input.kind, url: input.url, collection };
}

/**
 * The engine of a base that lives on a server, connected and checked. Its module is imported here, when a base on a
 * server is first opened: node-postgres takes ~20 ms to load, which every process that imports the knowledge service
 * (every CLI command) paid before.
 */
export async function openBaseEngine(id: string, settings: NonNullable<KnowledgeBase['engine']>, password: string | undefined): Promise<KnowledgeEngine> {
  const { PostgresEngine } = await import('./postgresEngine.js');
  return PostgresEngine.open({ base: id, url: settings.url, collection: settings.collection, ...(password !== undefined ? { password } : {}) });
}

export async function keepEngineSecret(secrets: SecretStore | undefined, id: string, password: string): Promise<void> {
  if (!secrets) throw new KnowledgeError('KB_INVALID', `knowledge base "${id}": this process has no key store to keep its password in`, 'create the base from the CLI or the app');
  await secrets.set(engineSecretName(id), password);
}

export async function forgetEngineSecret(secrets: SecretStore | undefined, id: string): Promise<void> {
  await secrets?.delete(engineSecretName(id));
}
