import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  KnowledgeBaseInputSchema,
  KnowledgeBasePatchSchema,
  KnowledgeBaseSchema,
  type AddResult,
  type Chunk,
  type DocumentPage,
  type IngestProgress,
  type KnowledgeBase,
  type SearchResult,
} from '../../shared/knowledge.js';
import { modelKind, type ModelEntry } from '../../shared/models.js';
import { normalizeName } from '../naming/names.js';
import { readRegularText } from '../files/readRegularFile.js';
import { writeFileAtomic } from '../store/dbFile.js';
import { withFileLock } from '../store/dbLock.js';
import { sameStamp, stampFile, type FileStamp } from '../files/fileStamps.js';
import type { Logger } from '../ports.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { checkedText, documentFromBytes, readDocumentFile, type DocumentText } from './documentText.js';
import { createEmbedder, EMBED_BATCH, offersEmbeddings, type Embedder } from './embedder.js';
import { KnowledgeError } from './knowledgeError.js';
import { openEmbedded, type KnowledgeEngine } from './knowledgeEngine.js';
import { engineSecretName, engineSettings, forgetEngineSecret, keepEngineSecret, openBaseEngine } from './postgres/baseEngine.js';
import { chunkText } from './markdownChunker.js';
import { migrateLegacy, hasLegacyIndex } from './legacyMigration.js';

export interface KnowledgeServiceDeps {
  /** `$CHATOS_HOME/chatos/knowledge`: one folder per base. */
  dir: string;
  /** Model entries and their keys (the ModelService); read when an embedding request is made. */
  models: { get(id: string): ModelEntry | undefined; ids(): string[]; keyFor(entry: ModelEntry): Promise<string | undefined> };
  now: () => number;
  /** Where a lock that could not be released is reported, and a migration's progress. */
  logger?: Logger;
  /** A base of the older format being moved into its store on first open: chunks done of total. */
  onMigration?: (base: string, progress: { done: number; total: number }) => void;
  /** Where a base on a server engine keeps its password (the key store); without it, such a base connects with none. */
  secrets?: SecretStore;
}

const quiet: Logger = { info() {}, warn() {}, error() {} };

export interface IngestOptions {
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
}

interface OpenBase {
  base: KnowledgeBase;
  store: KnowledgeEngine;
}

const BASE_FILE = 'base.json';
/** A base's metadata is a few hundred bytes; anything near this is not ours. */
const MAX_BASE_BYTES = 1024 * 1024;

const newChunkId = () => `c_${randomBytes(8).toString('hex')}`;

function invalid(issues: { path: PropertyKey[]; message: string }[]): KnowledgeError {
  return new KnowledgeError(
    'KB_INVALID',
    `the knowledge base settings are not valid: ${issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    'correct the fields named',
  );
}

const baseExists = (id: string) => new KnowledgeError('KB_EXISTS', `a knowledge base with id "${id}" already exists`, 'choose another id, or delete that base first');

function cancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new KnowledgeError('KB_CANCELLED', 'cancelled; nothing was added or changed');
}

/**
 * Knowledge bases (issue 20), each in its own folder under the data home:
 * `base.json` (its settings and times) and `store.sqlite` (KnowledgeStore:
 * chunks, their words and vectors, paged from disk; issue 44), with the
 * vector graph files beside it; or, for a base on a team's server
 * (`engine` in base.json), base.json alone and the chunks on that server
 * (postgres/). Either is a KnowledgeEngine to the code below. A change is computed first (chunks cut,
 * vectors fetched) and written in one transaction at the end, so a cancel,
 * a failed embedding request or a crash leaves the base as it was.
 * Changes to one base run one at a time, across processes too (`chatos kb
 * add` beside a running window): each holds the base's lock
 * (`base.json.lock`) and starts from what is on disk, re-read when
 * base.json (written last, by rename) is not the one this process read or
 * wrote; a search re-reads it the same way.
 */
export class KnowledgeService {
  private readonly open = new Map<string, Promise<OpenBase>>();
  /** Each base's store, open once per process: SQLite reads what is on disk, so another process's change needs only its vectors' tail read again. */
  private readonly stores = new Map<string, KnowledgeEngine>();
  private readonly queues = new Map<string, Promise<unknown>>();
  /** base.json as this process last read or wrote it, per open base. */
  private readonly stamps = new Map<string, FileStamp>();

  constructor(private readonly deps: KnowledgeServiceDeps) {}

  private folderOf(id: string): string {
    return path.join(this.deps.dir, id);
  }

  async list(): Promise<KnowledgeBase[]> {
    let names: string[];
    try {
      names = fs.readdirSync(this.deps.dir);
    } catch {
      return [];
    }
    const bases: KnowledgeBase[] = [];
    for (const name of names.sort()) {
      const base = this.readBase(name);
      if (base) bases.push(base);
    }
    return bases;
  }

  /**
   * Each base folder's id with its base.json's stamp (written last on every change, by rename): what changed since the
   * last look, without reading any base. For the faces' live lists (ListWatch).
   */
  baseStamps(): Map<string, string> {
    let names: string[];
    try {
      names = fs.readdirSync(this.deps.dir);
    } catch {
      return new Map();
    }
    return new Map(
      names.map((name) => {
        const stamp = stampFile(path.join(this.folderOf(name), BASE_FILE));
        return [name, `${stamp.ino}:${stamp.mtimeMs}:${stamp.ctimeMs}:${stamp.size}`];
      }),
    );
  }

  /** A base's settings and counts; KB_NOT_FOUND names the ones there are. */
  async get(id: string): Promise<KnowledgeBase> {
    return (await this.opened(id)).base;
  }

  async create(input: unknown): Promise<KnowledgeBase> {
    const parsed = KnowledgeBaseInputSchema.safeParse(input);
    if (!parsed.success) throw invalid(parsed.error.issues);
    const data = parsed.data;
    if (data.embeddingModel) await this.checkEmbeddingModel(data.embeddingModel);
    fs.mkdirSync(this.deps.dir, { recursive: true });
    const id = data.id ?? this.freeId(data.name);
    const folder = this.folderOf(id);
    if (fs.existsSync(folder)) throw baseExists(id);
    // A server engine is reached (and its tables made) before anything is written here: one that is down leaves no base behind.
    const engine = data.engine ? engineSettings(id, data.engine) : undefined;
    const remote = engine ? await openBaseEngine(id, engine, data.engine?.password) : undefined;
    // A shared collection may hold chunks already (another machine's): the base starts with them.
    const held = remote ? { embeddedWith: await remote.embeddedWith(), counts: await remote.counts() } : { embeddedWith: null, counts: { files: 0, chunks: 0 } };
    try {
      fs.mkdirSync(folder);
      if (remote && data.engine?.password) await keepEngineSecret(this.deps.secrets, id, data.engine.password);
    } catch (error) {
      await remote?.close();
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw baseExists(id);
      fs.rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    const now = new Date(this.deps.now()).toISOString();
    const { id: _given, engine: _input, ...settings } = data;
    const base = KnowledgeBaseSchema.parse({ ...settings, id, ...(engine ? { engine } : {}), ...held, createdAt: now, updatedAt: now });
    const store = remote ?? openEmbedded(folder, id);
    this.stores.set(id, store);
    this.writeBase(base);
    this.open.set(id, Promise.resolve({ base, store }));
    this.stamps.set(id, stampFile(path.join(folder, BASE_FILE)));
    return base;
  }

  /**
   * Changes settings. A new embedding model re-embeds every chunk with it
   * before anything is saved: when that fails or is cancelled, the base
   * keeps its old model and vectors. A new chunk size applies to documents
   * added from now on.
   */
  async update(id: string, patch: unknown, options: IngestOptions = {}): Promise<KnowledgeBase> {
    const parsed = KnowledgeBasePatchSchema.safeParse(patch);
    if (!parsed.success) throw invalid(parsed.error.issues);
    return this.serial(id, async () => {
      const current = await this.opened(id);
      const next = { ...current.base, ...parsed.data };
      if (next.chunkOverlap >= next.chunkSize) throw invalid([{ path: ['chunkOverlap'], message: 'must be smaller than chunkSize' }]);
      const modelChanged = parsed.data.embeddingModel !== undefined && parsed.data.embeddingModel !== current.base.embeddedWith?.model;
      // A base with no chunks yet makes no request when re-embedded: the new model is checked all the same.
      if (modelChanged && next.embeddingModel && (await current.store.counts()).chunks === 0) await this.checkEmbeddingModel(next.embeddingModel, options.signal);
      let embeddedWith = next.embeddedWith;
      if (modelChanged) embeddedWith = await this.embedAll(current.store, next.embeddingModel, options);
      const base = await this.touched({ ...next, embeddedWith }, current.store);
      this.commit(base, current.store);
      return base;
    });
  }

  /** Embeds every chunk again with the base's model (after a failed change, or a model that now answers differently). */
  async reembed(id: string, options: IngestOptions = {}): Promise<KnowledgeBase> {
    return this.serial(id, async () => {
      const current = await this.opened(id);
      const embeddedWith = await this.embedAll(current.store, current.base.embeddingModel, options);
      const base = await this.touched({ ...current.base, embeddedWith }, current.store);
      this.commit(base, current.store);
      return base;
    });
  }

  async delete(id: string): Promise<KnowledgeBase> {
    return this.serial(id, async () => {
      const settings = this.readBase(id, true)!;
      // A base on a server is only forgotten here (its collection stays there, for the team sharing it), so a server that is gone does not keep it.
      const { base, store } = settings.engine ? { base: settings, store: this.stores.get(id) } : await this.opened(id);
      await store?.close();
      if (base.engine) await forgetEngineSecret(this.deps.secrets, id);
      this.stores.delete(id);
      this.open.delete(id);
      this.stamps.delete(id);
      fs.rmSync(this.folderOf(id), { recursive: true, force: true });
      return base;
    });
  }

  /** Adds a text under `title` (a text added again under the same title replaces the old one's chunks). */
  async addText(id: string, text: string, title: string, options: IngestOptions = {}): Promise<AddResult> {
    const name = title.trim() || 'text';
    const [added] = await this.addDocuments(id, [{ name, text: checkedText(text, `the text "${name}"`), notes: [] }], options);
    return added!;
  }

  /** Adds a file (.txt, .md, .html, .pdf); a file added again under the same name replaces its old chunks. */
  async addFile(id: string, file: string, options: IngestOptions = {}): Promise<AddResult> {
    const [added] = await this.addFiles(id, [file], options);
    return added!;
  }

  /**
   * Adds files as one change (`chatos kb add KB FILE…`): each is read and
   * cut into chunks, all are embedded, and the base is written once. Adding
   * N files costs their own work and one write, not N writes of an index
   * that grows with each (3,000 small files took minutes). A file that
   * cannot be read fails the add, with nothing changed.
   */
  async addFiles(id: string, files: readonly string[], options: IngestOptions = {}): Promise<AddResult[]> {
    await this.opened(id);
    const documents: DocumentText[] = [];
    for (const [i, file] of files.entries()) {
      cancelled(options.signal);
      options.onProgress?.({ phase: 'reading', file: path.basename(file), done: i, total: files.length });
      documents.push(await readDocumentFile(file));
    }
    return this.addDocuments(id, documents, options);
  }

  /** Adds a file's bytes (an upload from a face); `name` is its file name, and only its last part is kept. */
  async addBytes(id: string, name: string, bytes: Buffer, options: IngestOptions = {}): Promise<AddResult> {
    const [added] = await this.addUploads(id, [{ name, bytes }], options);
    return added!;
  }

  /** Adds uploaded files as one change, as addFiles does (a page's drop of many files). */
  async addUploads(id: string, uploads: readonly { name: string; bytes: Buffer }[], options: IngestOptions = {}): Promise<AddResult[]> {
    await this.opened(id);
    const documents: DocumentText[] = [];
    for (const [i, upload] of uploads.entries()) {
      cancelled(options.signal);
      const fileName = path.basename(upload.name.replaceAll('\\', '/')).trim().slice(0, 200);
      options.onProgress?.({ phase: 'reading', file: fileName, done: i, total: uploads.length });
      documents.push(await documentFromBytes(fileName, upload.bytes));
    }
    return this.addDocuments(id, documents, options);
  }

  /**
   * One change adding `documents`: their chunks replace those of the same
   * names, under the base's lock, written once. A name given twice is kept
   * as its later document, as two adds one after the other would leave it.
   */
  private async addDocuments(id: string, documents: readonly DocumentText[], options: IngestOptions): Promise<AddResult[]> {
    return this.serial(id, async () => {
      const { base, store } = await this.opened(id);
      const cut = documents.map((document, i): Chunk[] => {
        options.onProgress?.({ phase: 'chunking', file: document.name, done: i, total: documents.length });
        return chunkText(document.text, { size: base.chunkSize, overlap: base.chunkOverlap }).map((piece, position) => ({ id: newChunkId(), file: document.name, position, ...piece }));
      });
      const lastOf = new Map(documents.map((document, i) => [document.name, i]));
      const chunks = cut.filter((_, i) => lastOf.get(documents[i]!.name) === i).flat();
      const single = documents.length === 1 ? documents[0]!.name : undefined;
      let vectors: number[][] | undefined;
      let embeddedWith = base.embeddedWith;
      if (base.embeddingModel) {
        const embedder = await this.embedderFor(base.embeddingModel);
        vectors = await this.embedBatches(
          embedder,
          chunks.map((c) => c.text),
          single,
          options,
        );
        const dimensions = vectors[0]?.length ?? 0;
        if (base.embeddedWith && (base.embeddedWith.model !== embedder.modelId || base.embeddedWith.dimensions !== dimensions) && (await store.counts()).chunks > 0) {
          throw new KnowledgeError(
            'KB_INVALID',
            `knowledge base "${id}" holds vectors of model "${base.embeddedWith.model}" but is set to "${base.embeddingModel}"`,
            `re-embed it first: chatos kb reembed ${id}`,
          );
        }
        if (dimensions) embeddedWith = { model: embedder.modelId, dimensions };
      }
      cancelled(options.signal);
      options.onProgress?.({ phase: 'saving', ...(single ? { file: single } : {}), done: 0, total: 1 });
      // A base of words only gets vectors the first time they arrive (its other chunks: none, or from a base that had no model).
      // Read from the store, not base.json: on a shared engine another machine may have re-embedded the base since.
      const held = (await store.embeddedWith())?.dimensions;
      if (vectors && embeddedWith && held !== embeddedWith.dimensions && (await store.counts()).chunks > 0)
        throw new KnowledgeError(
          'KB_INVALID',
          held
            ? `knowledge base "${id}" holds vectors of ${held} dimensions; model "${base.embeddingModel}" answered ${embeddedWith.dimensions}, so nothing was added`
            : `knowledge base "${id}" has chunks without vectors`,
          `re-embed it first: chatos kb reembed ${id}`,
        );
      // Chunks per name before this change.
      const before = await store.chunkCounts(lastOf.keys());
      const saved = await store.write({ files: [...lastOf.keys()], chunks, ...(vectors ? { vectors, embeddedWith } : {}) });
      this.commit(await this.touched({ ...base, embeddedWith }, store), store);
      return documents.map((document, i) => {
        // The store's notes are about the whole change: told once, with the first document.
        const notes = [...document.notes, ...(i === 0 ? saved : [])];
        const result: AddResult = {
          file: document.name,
          chunks: cut[i]!.length,
          replaced: before.get(document.name) ?? 0,
          embedded: vectors !== undefined,
          ...(notes.length ? { notes } : {}),
        };
        before.set(document.name, cut[i]!.length);
        return result;
      });
    });
  }

  /** One page of chunks (by file, then position), and every file's chunk count. */
  async listDocuments(id: string, options: { file?: string; offset?: number; limit?: number } = {}): Promise<DocumentPage> {
    const { store } = await this.opened(id);
    const offset = Math.max(0, options.offset ?? 0);
    const limit = Math.min(Math.max(1, options.limit ?? 50), 500);
    const page = await store.page(options.file, offset, limit);
    return { files: await store.files(), total: page.total, offset, limit, chunks: page.chunks };
  }

  async deleteChunk(id: string, chunkId: string): Promise<Chunk> {
    return this.serial(id, async () => {
      const { base, store } = await this.opened(id);
      const chunk = await store.get(chunkId);
      if (!chunk) throw new KnowledgeError('KB_CHUNK_NOT_FOUND', `knowledge base "${id}" has no chunk "${chunkId}"`, `list its chunks: chatos kb docs ${id}`);
      await store.write({ ids: [chunkId] });
      this.commit(await this.touched(base, store), store);
      return chunk;
    });
  }

  /** Deletes every chunk of one source file; returns how many. */
  async deleteFile(id: string, file: string): Promise<number> {
    return this.serial(id, async () => {
      const { base, store } = await this.opened(id);
      const count = (await store.chunkCounts([file])).get(file) ?? 0;
      if (count === 0) {
        const files = (await store.files()).map((f) => f.file);
        throw new KnowledgeError('KB_FILE_NOT_FOUND', `knowledge base "${id}" has no file "${file}"`, files.length ? `one of: ${files.slice(0, 20).join(', ')}` : 'it has no files yet');
      }
      await store.write({ files: [file] });
      this.commit(await this.touched(base, store), store);
      return count;
    });
  }

  /**
   * Hybrid search (BM25 + vector similarity) when the base's vectors are
   * from its current model; by words only otherwise, saying why.
   */
  async search(id: string, query: string, options: { limit?: number; signal?: AbortSignal } = {}): Promise<SearchResult & { note?: string }> {
    const { base, store } = await this.opened(id);
    const limit = Math.min(Math.max(1, options.limit ?? 5), 50);
    const model = base.embeddingModel;
    if (!model) return { mode: 'lexical', hits: await store.search(query, limit) };
    const dimensions = (await store.embeddedWith())?.dimensions;
    if (base.embeddedWith?.model !== model || !dimensions) {
      const note = (await store.counts()).chunks ? `searched by words only: the vectors are not from model "${model}" yet; re-embed the base` : undefined;
      return { mode: 'lexical', hits: await store.search(query, limit), ...(note ? { note } : {}) };
    }
    const [vector] = await (await this.embedderFor(model)).embed([query], options.signal);
    // A server may answer a query with another length than it answered the chunks (another model behind the same name): comparing those would rank by noise.
    if (vector!.length !== dimensions) {
      const note = `searched by words only: model "${model}" answered the query with ${vector!.length} numbers, the base's vectors have ${dimensions}; re-embed the base`;
      return { mode: 'lexical', hits: await store.search(query, limit), note };
    }
    return { mode: 'hybrid', hits: await store.search(query, limit, vector) };
  }

  /** Forgets open indexes (the files stay). */
  dispose(): void {
    for (const store of this.stores.values()) void store.close();
    this.stores.clear();
    this.open.clear();
  }

  /** Every chunk's vectors from `model` (none without one), replaced in one transaction once all are in: a failure midway changes nothing. */
  private async embedAll(store: KnowledgeEngine, model: string | null, options: IngestOptions): Promise<KnowledgeBase['embeddedWith']> {
    if (!model) {
      await store.replaceVectors(null);
      return null;
    }
    const embedder = await this.embedderFor(model);
    const chunks = await store.all();
    if (chunks.length === 0) {
      await store.replaceVectors(null);
      return null;
    }
    const vectors = await this.embedBatches(
      embedder,
      chunks.map((c) => c.text),
      undefined,
      options,
    );
    cancelled(options.signal);
    const dimensions = vectors[0]!.length;
    const byId = new Map(chunks.map((chunk, i) => [chunk.id, vectors[i]!]));
    const embeddedWith = { model, dimensions };
    await store.replaceVectors(embeddedWith, byId);
    return embeddedWith;
  }

  private async embedBatches(embedder: Embedder, texts: string[], file: string | undefined, options: IngestOptions): Promise<number[][]> {
    const vectors: number[][] = [];
    const started = this.deps.now();
    // The estimate is the pace so far: batches are of one size, so each costs about the same.
    const report = (done: number) => {
      const elapsed = this.deps.now() - started;
      const etaMs = done > 0 ? Math.round((elapsed / done) * (texts.length - done)) : undefined;
      options.onProgress?.({ phase: 'embedding', ...(file ? { file } : {}), done, total: texts.length, ...(etaMs !== undefined ? { etaMs } : {}) });
    };
    report(0);
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      cancelled(options.signal);
      const batch = await embedder.embed(texts.slice(i, i + EMBED_BATCH), options.signal);
      if (vectors.length && batch[0]!.length !== vectors[0]!.length)
        throw new KnowledgeError(
          'KB_EMBEDDING_FAILED',
          `model "${embedder.modelId}" answered vectors of different lengths (${vectors[0]!.length} and ${batch[0]!.length})`,
          'choose an embedding model that answers one length',
        );
      vectors.push(...batch);
      report(vectors.length);
    }
    cancelled(options.signal);
    return vectors;
  }

  /** The entry, checked to exist, to be an embedding model, and to offer embeddings. */
  private embeddingEntry(modelId: string): ModelEntry {
    const entry = this.deps.models.get(modelId);
    if (!entry) {
      const known = this.deps.models.ids().filter((id) => {
        const e = this.deps.models.get(id);
        return e !== undefined && modelKind(e) === 'embedding';
      });
      throw new KnowledgeError(
        'KB_MODEL_NOT_FOUND',
        `no model entry "${modelId}"`,
        known.length
          ? `one of the embedding entries: ${known.join(', ')}; or none, to search by words only`
          : 'add an embedding model (chatos models add ID --kind embedding …), or choose none to search by words only',
      );
    }
    if (modelKind(entry) !== 'embedding') {
      throw new KnowledgeError(
        'KB_MODEL_NOT_EMBEDDING',
        `model "${modelId}" (${entry.model}) is a chat model, not an embedding model: a knowledge base needs vectors from an embedding model`,
        "choose an entry of kind embedding (e.g. text-embedding-3-small, nomic-embed-text), or set the entry's kind to embedding if it is one; its Test on the Models page shows its dimension",
      );
    }
    if (!offersEmbeddings(entry)) createEmbedder(entry, undefined);
    return entry;
  }

  /**
   * The model a base is to use, checked before anything is saved: it exists,
   * is an embedding model, and answers one embeddings request (the reason it
   * does not is the refusal's).
   */
  private async checkEmbeddingModel(modelId: string, signal?: AbortSignal): Promise<void> {
    const embedder = await this.embedderFor(modelId);
    try {
      await embedder.embed(['ChatOS embedding check'], signal);
    } catch (error) {
      if (!(error instanceof KnowledgeError) || error.code === 'KB_CANCELLED') throw error;
      throw new KnowledgeError('KB_EMBEDDING_FAILED', `model "${modelId}" failed its embedding check, so nothing was saved: ${error.message}`, error.hint, error.failure);
    }
  }

  private async embedderFor(modelId: string): Promise<Embedder> {
    const entry = this.embeddingEntry(modelId);
    return createEmbedder(entry, await this.deps.models.keyFor(entry));
  }

  private async touched(base: KnowledgeBase, store: KnowledgeEngine): Promise<KnowledgeBase> {
    return { ...base, counts: await store.counts(), updatedAt: new Date(this.deps.now()).toISOString() };
  }

  /** base.json after the store's transaction: written last, so another process sees the change (its stamp moves) once the store holds it. */
  private commit(base: KnowledgeBase, store: KnowledgeEngine): void {
    this.writeBase(base);
    this.open.set(base.id, Promise.resolve({ base, store }));
    this.stamps.set(base.id, stampFile(path.join(this.folderOf(base.id), BASE_FILE)));
  }

  private writeBase(base: KnowledgeBase): void {
    writeFileAtomic(path.join(this.folderOf(base.id), BASE_FILE), Buffer.from(`${JSON.stringify(base, null, 2)}\n`));
  }

  private serial<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const locked = () => this.locked(id, work);
    const run = previous.then(locked, locked);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(id, settled);
    void settled.then(() => this.queues.get(id) === settled && this.queues.delete(id));
    return run;
  }

  /** The work under the base's lock, which another process holds while it changes the base (embedding included: a long wait). */
  private locked<T>(id: string, work: () => Promise<T>): Promise<T> {
    // A base that is not there is said so, rather than failing to make its lock.
    this.readBase(id, true);
    return withFileLock(path.join(this.folderOf(id), BASE_FILE), this.deps.logger ?? quiet, work, 'long');
  }

  private opened(id: string): Promise<OpenBase> {
    let opening = this.open.get(id);
    const baseFile = path.join(this.folderOf(id), BASE_FILE);
    // Changed by another process since this one read or wrote it: read again.
    if (opening && !sameStamp(this.stamps.get(id), stampFile(baseFile))) {
      this.open.delete(id);
      opening = undefined;
    }
    if (!opening) {
      // Taken before the read: a change during it makes the next use read again.
      this.stamps.set(id, stampFile(baseFile));
      opening = this.load(id);
      this.open.set(id, opening);
      opening.catch(() => this.open.delete(id));
    }
    return opening;
  }

  /**
   * Opens a base's store: a base of the older format (index.msp and
   * vectors.bin) is moved into one first, under its lock; the counts and
   * the vectors' model are the store's (a crash after its transaction and
   * before base.json was written leaves base.json behind, never the store).
   */
  private async load(id: string): Promise<OpenBase> {
    const folder = this.folderOf(id);
    if (hasLegacyIndex(folder)) {
      await withFileLock(
        path.join(folder, BASE_FILE),
        this.deps.logger ?? quiet,
        async () => {
          if (!hasLegacyIndex(folder)) return;
          const base = this.readBase(id, true)!;
          await migrateLegacy(folder, base, (progress) => {
            this.deps.onMigration?.(id, progress);
            (this.deps.logger ?? quiet).info(`knowledge base "${id}": moving into its store, ${progress.done} of ${progress.total} chunks`);
          });
        },
        'long',
      );
    }
    const base = this.readBase(id, true)!;
    let store = this.stores.get(id);
    if (store) store.refresh();
    else {
      store = base.engine ? await openBaseEngine(id, base.engine, await this.deps.secrets?.get(engineSecretName(id))) : openEmbedded(folder, id);
      this.stores.set(id, store);
    }
    return { base: { ...base, counts: await store.counts(), embeddedWith: await store.embeddedWith() }, store };
  }

  /** A base's settings from its folder; undefined (or KB_NOT_FOUND / KB_BROKEN when `strict`) if absent or broken. */
  private readBase(id: string, strict = false): KnowledgeBase | undefined {
    const file = path.join(this.folderOf(id), BASE_FILE);
    const read = /^[a-z0-9][a-z0-9_-]{0,63}$/.test(id) ? readRegularText(file, { maxBytes: MAX_BASE_BYTES, noFollow: true }) : undefined;
    if (!read?.ok) {
      if (!strict) return undefined;
      if (!read || read.code === 'FILE_NOT_FOUND') {
        const known = fs.existsSync(this.deps.dir) ? fs.readdirSync(this.deps.dir) : [];
        throw new KnowledgeError('KB_NOT_FOUND', `no knowledge base "${id}"`, known.length ? `one of: ${known.sort().join(', ')}` : 'create one: chatos kb create NAME');
      }
      throw new KnowledgeError('KB_BROKEN', `knowledge base "${id}": ${read.message}`, read.hint);
    }
    let json: unknown;
    try {
      json = JSON.parse(read.text);
    } catch (error) {
      if (!strict) return undefined;
      throw new KnowledgeError('KB_BROKEN', `${file} is not JSON: ${(error as Error).message}`, 'restore it from a backup, or delete the base and add its documents again');
    }
    const parsed = KnowledgeBaseSchema.safeParse(json);
    if (parsed.success && parsed.data.id === id) return parsed.data;
    if (!strict) return undefined;
    throw new KnowledgeError(
      'KB_BROKEN',
      `${file} is not a valid knowledge base: ${parsed.success ? `its id "${parsed.data.id}" is not its folder's name` : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      'restore it from a backup, or delete the base and add its documents again',
    );
  }

  private freeId(name: string): string {
    const base =
      normalizeName(name)
        .replace(/^[^a-z0-9]+/, '')
        .slice(0, 48) || 'kb';
    let id = base;
    for (let n = 2; fs.existsSync(this.folderOf(id)); n++) id = `${base}-${n}`;
    return id;
  }
}
