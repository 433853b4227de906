import {
  BaseUrlSchema,
  describeKeyStore,
  guessModelKind,
  guessReasoning,
  ModelEntryInputSchema,
  ModelEntrySchema,
  modelKind,
  type ApiKind,
  type KeyState,
  type KeyStore,
  type ModelCatalog,
  type ModelEntry,
  type ModelKind,
  type ModelTestResult,
  type ModelView,
} from '../../shared/models.js';
import { ownValue } from '../../shared/ownKeys.js';
import { normalizeName } from '../naming/names.js';
import { modelKeyName, SecretError, type SecretStore } from '../secrets/secretStore.js';
import { createModelClient, type ModelClient } from './providers/modelClient.js';
import { listModelNames } from './modelCatalog.js';
import { ModelError } from './modelError.js';
import type { ModelStore } from './modelStore.js';
import { testModel } from './modelTest.js';

export interface ModelServiceDeps {
  store: ModelStore;
  secrets: SecretStore;
  /** Where `{ kind: 'env' }` keys are read, when a request is made. */
  env: NodeJS.ProcessEnv;
  /** An embedding entry's test: one embeddings request the way a knowledge base makes them (knowledge sits above models). */
  testEmbedding(entry: ModelEntry, apiKey: string | undefined, options: { timeoutMs?: number; signal?: AbortSignal }): Promise<ModelTestResult>;
}

/** A key given with a save: a value goes to the SecretStore (never into the row). */
export interface KeyChange {
  apiKey?: string;
}

function parseEntry(input: unknown): ReturnType<typeof ModelEntryInputSchema.parse> {
  const parsed = ModelEntryInputSchema.safeParse(input);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message }));
    throw new ModelError('MODEL_INVALID', `the model entry is not valid: ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`, undefined, fields);
  }
  return parsed.data;
}

/**
 * What an entry made without saying gets from its model name: its kind
 * (only known embedding families are taken for embedding models), and for
 * a chat model of a known reasoning family, the reasoning switch (o4-mini,
 * GPT-5 reject `max_tokens` and `temperature`). What the input sets stays.
 */
function guessed<T extends { kind?: ModelKind | undefined; reasoning?: boolean | undefined; model: string; api: ApiKind }>(data: T): T {
  const kind = data.kind ?? guessModelKind(data.model);
  return { ...data, kind, ...(data.reasoning === undefined && kind === 'chat' && guessReasoning(data.api, data.model) ? { reasoning: true } : {}) };
}

/**
 * Model entries with their keys: the rows in the admin DB, the keys in the
 * SecretStore or the environment, joined only here, in the main process.
 * What leaves for a face is a ModelView: where a key comes from and whether
 * it is there, never its value.
 */
export class ModelService {
  constructor(private readonly deps: ModelServiceDeps) {}

  get keyStore(): KeyStore {
    return this.deps.secrets.location;
  }

  async list(): Promise<ModelView[]> {
    return Promise.all(this.deps.store.list().map((entry) => this.view(entry)));
  }

  /** The entries' ids, in their order (no key is looked at). */
  ids(): string[] {
    return this.deps.store.list().map((entry) => entry.id);
  }

  get(id: string): ModelEntry | undefined {
    return this.deps.store.get(id);
  }

  has(id: string): boolean {
    return this.deps.store.has(id);
  }

  /** The entry, or MODEL_NOT_FOUND naming the ones there are. */
  require(id: string): ModelEntry {
    const entry = this.deps.store.get(id);
    if (entry) return entry;
    const known = this.deps.store.list().map((m) => m.id);
    throw new ModelError('MODEL_NOT_FOUND', `no model "${id}"`, known.length ? `one of: ${known.join(', ')}` : 'add one: chatos models add ID --preset openai (or on the Models page)');
  }

  /** What a face may know of an entry; its kind is filled in for entries written before kinds existed. */
  async view(entry: ModelEntry): Promise<ModelView> {
    return { ...entry, kind: modelKind(entry), keyState: await this.keyState(entry) };
  }

  /** Creates an entry; its id is the given one, else derived from its name (made unique). */
  async create(input: unknown, key: KeyChange = {}): Promise<ModelEntry> {
    const data = parseEntry(input);
    let id = data.id;
    if (id !== undefined) {
      if (this.deps.store.has(id)) throw new ModelError('MODEL_EXISTS', `a model with id "${id}" already exists`, `choose another id, or remove it first: chatos models remove ${id}`);
    } else {
      // A name with no Latin letters or digits ("深度求索") gives nothing: the provider's model name does, before a bare "model".
      const idOf = (text: string | undefined) =>
        normalizeName(text ?? '')
          .replace(/^[^a-z0-9]+/, '')
          .slice(0, 48);
      const base = idOf(data.name) || idOf(data.model) || 'model';
      id = base;
      for (let n = 2; this.deps.store.has(id); n++) id = `${base}-${n}`;
    }
    return this.write(ModelEntrySchema.parse({ ...guessed(data), id }), key);
  }

  /** Replaces an entry's fields (its id cannot change). Without a new key value, a stored key stays. */
  async update(id: string, input: unknown, key: KeyChange = {}): Promise<ModelEntry> {
    const before = this.require(id);
    const data = parseEntry({ ...(input as object), id });
    // What the provider taught about this model stays while it is the same model at the same place.
    const learned = data.rejectedParams === undefined && before.rejectedParams && before.model === data.model && before.baseUrl === data.baseUrl ? { rejectedParams: before.rejectedParams } : {};
    return this.write(ModelEntrySchema.parse({ ...data, ...learned, id }), key);
  }

  /** Removes the entry and its stored key (the key first: a key must not outlive its entry unseen). */
  async remove(id: string): Promise<boolean> {
    this.require(id);
    await this.deps.secrets.delete(modelKeyName(id));
    return this.deps.store.delete(id);
  }

  /** The key a request to this entry sends; MODEL_KEY_MISSING when it should have one and does not. */
  async keyFor(entry: ModelEntry): Promise<string | undefined> {
    switch (entry.key.kind) {
      case 'none':
        return undefined;
      case 'env': {
        const value = ownValue(this.deps.env, entry.key.name);
        if (value) return value;
        throw new ModelError(
          'MODEL_KEY_MISSING',
          `model "${entry.id}" takes its key from the environment variable ${entry.key.name}, which is not set`,
          `set ${entry.key.name} in the environment this process runs in, or store the key: chatos models add … --api-key-stdin`,
        );
      }
      case 'stored': {
        const value = await this.deps.secrets.get(modelKeyName(entry.id));
        if (value) return value;
        throw new ModelError(
          'MODEL_KEY_MISSING',
          `model "${entry.id}" has no stored key (${describeKeyStore(this.deps.secrets.location)})`,
          'enter its key on the Models page, or remove and add it again with --api-key-stdin',
        );
      }
    }
  }

  async client(id: string): Promise<ModelClient> {
    const entry = this.require(id);
    return this.clientFor(entry, await this.keyFor(entry));
  }

  /** The entry's client; a parameter the provider rejects by name for its model is remembered on the entry (rejectedParams). */
  clientFor(entry: ModelEntry, apiKey: string | undefined): ModelClient {
    return createModelClient(entry, apiKey, { rejectedParam: (param) => this.remember(entry.id, param) });
  }

  private remember(id: string, param: NonNullable<ModelEntry['rejectedParams']>[number]): void {
    const current = this.deps.store.get(id);
    if (!current || current.rejectedParams?.includes(param)) return;
    this.deps.store.put({ ...current, rejectedParams: [...(current.rejectedParams ?? []), param] });
  }

  /**
   * One tiny request: a streamed answer for a chat entry, an embeddings
   * request for an embedding entry (reporting its vectors' length). A
   * provider failure is a result (coded), a missing key or entry is thrown.
   */
  async test(id: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ModelTestResult> {
    const entry = this.require(id);
    const key = await this.keyFor(entry);
    if (modelKind(entry) === 'embedding') return this.deps.testEmbedding(entry, key, options);
    return testModel(this.clientFor(entry, key), options);
  }

  /**
   * The model names the provider offers, for the model picker: of a saved
   * entry (with its key), or of an address being edited (with the key
   * typed, if any). A provider failure is thrown as a ProviderError.
   */
  async available(input: { id?: string; api?: ApiKind; baseUrl?: string; apiKey?: string }, signal?: AbortSignal): Promise<ModelCatalog> {
    if (input.id !== undefined) {
      const entry = this.require(input.id);
      const key = await this.keyFor(entry);
      return listModelNames({ api: entry.api, baseUrl: entry.baseUrl, ...(key ? { apiKey: key } : {}) }, signal);
    }
    const url = BaseUrlSchema.safeParse(input.baseUrl);
    if (!url.success || !input.api)
      throw new ModelError('MODEL_INVALID', 'give the API and a base URL to list models from', undefined, [
        { path: 'baseUrl', message: url.success ? 'the API is missing' : (url.error.issues[0]?.message ?? 'not a URL') },
      ]);
    return listModelNames({ api: input.api, baseUrl: url.data, ...(input.apiKey ? { apiKey: input.apiKey } : {}) }, signal);
  }

  private async write(entry: ModelEntry, key: KeyChange): Promise<ModelEntry> {
    const name = modelKeyName(entry.id);
    if (key.apiKey !== undefined) {
      // A value given is stored and the entry points at it, whatever the input said.
      if (!key.apiKey.trim()) throw new ModelError('MODEL_INVALID', 'the API key is empty', 'paste the key, or leave it out', [{ path: 'apiKey', message: 'must not be empty' }]);
      await this.deps.secrets.set(name, key.apiKey.trim());
      entry = { ...entry, key: { kind: 'stored' } };
    } else if (entry.key.kind === 'stored' && !(await this.deps.secrets.has(name))) {
      throw new ModelError('MODEL_INVALID', `model "${entry.id}" should use a stored key, but none is stored`, 'give the key (--api-key-stdin, or the key field on the Models page)', [
        { path: 'apiKey', message: 'no key is stored yet' },
      ]);
    }
    this.deps.store.put(entry);
    // A key no longer used (the entry now reads an env variable, or needs none) is not kept.
    if (entry.key.kind !== 'stored') await this.deps.secrets.delete(name);
    return entry;
  }

  private async keyState(entry: ModelEntry): Promise<KeyState> {
    switch (entry.key.kind) {
      case 'none':
        return { source: 'none', set: false };
      case 'env':
        return { source: 'env', env: entry.key.name, set: Boolean(ownValue(this.deps.env, entry.key.name)) };
      case 'stored':
        try {
          return { source: 'stored', set: await this.deps.secrets.has(modelKeyName(entry.id)) };
        } catch (error) {
          if (!(error instanceof SecretError)) throw error;
          return { source: 'stored', set: false, problem: error.hint ? `${error.message}; fix: ${error.hint}` : error.message };
        }
    }
  }
}
