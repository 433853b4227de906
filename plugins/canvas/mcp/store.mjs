// The canvas's store: runs calls through the pure engine one at a time, in
// arrival order (the single writer of docs/rules/canvas.md#one-way-to-write), and keeps the result in a data
// folder. Several processes may serve one folder (each conversation's server
// instance, a CLI beside the app), so every batch of calls takes an
// inter-process lock, re-reads the instances file if another process changed
// it, applies, writes the file atomically (temp file, fsync, rename) and
// appends the calls to the history file before anyone is answered.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import lockfile from 'proper-lockfile';
import { applyCall, checkState, initialState } from './engine.mjs';
import { HISTORY_FILE, INSTANCES_FILE } from './historyFile.mjs';

/** History is compacted to its newest `historyKeep` calls once the file passes `historyMaxBytes`. */
const HISTORY_MAX_BYTES = 1024 * 1024;
const HISTORY_KEEP = 500;
/** A call's patches larger than this are kept in the history as a summary. */
const HISTORY_PATCHES_BYTES = 16 * 1024;

const LOCK_OPTIONS = {
  realpath: false,
  // A process that died holding the lock loses it after 10 s; a live one refreshes it every 2.5 s.
  stale: 10_000,
  update: 2_500,
  retries: { retries: 400, factor: 1.2, minTimeout: 2, maxTimeout: 25 },
};

const idOf = (value) => (typeof value === 'string' ? value.slice(0, 64) : '?');

/** Which instance a call is about, for its history entry. */
function subjectOf(call) {
  if (call?.instance_id === '__CREATE__') return { kind: 'create', instance_id: idOf(call.new_instance_id) };
  if (call?.instance_id === '__DELETE__') return { kind: 'delete', instance_id: idOf(call.target_instance_id) };
  return { kind: 'patch', instance_id: idOf(call?.instance_id) };
}

function patchesForHistory(patches) {
  if (!Array.isArray(patches)) return [];
  if (JSON.stringify(patches).length <= HISTORY_PATCHES_BYTES) return patches;
  return { truncated: true, count: patches.length, ops: patches.slice(0, 50).map((p) => `${p?.op} ${p?.path}`) };
}

export class CanvasStore {
  /**
   * @param {string} dir the data folder
   * @param {{ now?: () => number, log?: (line: string) => void, fsync?: boolean, historyMaxBytes?: number, historyKeep?: number }} options
   */
  constructor(dir, options = {}) {
    this.dir = dir;
    this.file = path.join(dir, INSTANCES_FILE);
    this.historyFile = path.join(dir, HISTORY_FILE);
    this.now = options.now ?? Date.now;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.fsync = options.fsync ?? true;
    this.historyMaxBytes = options.historyMaxBytes ?? HISTORY_MAX_BYTES;
    this.historyKeep = options.historyKeep ?? HISTORY_KEEP;
    /** @type {{ op: 'patch' | 'read', call?: unknown, caller?: unknown, read?: (state: any) => unknown, resolve: (v: any) => void, reject: (e: Error) => void }[]} */
    this.queue = [];
    this.draining = false;
    this.state = undefined;
    /** The instances file as this process last read or wrote it (inode, size, mtime). */
    this.known = undefined;
  }

  /** Applies one patch_ui_state call; resolves with the engine's outcome once it is on disk. */
  patch(call, caller) {
    return this.enqueue({ op: 'patch', call, caller });
  }

  /** Runs a pure read (get_schema, list_instances) in turn, after every call that arrived before it. */
  read(read) {
    return this.enqueue({ op: 'read', read });
  }

  enqueue(item) {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...item, resolve, reject });
      void this.drain();
    });
  }

  /** Calls that arrive while a batch is on disk wait and go together in the next batch: one lock and one write for all of them, each still all or nothing, in order. */
  async drain() {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0) await this.runBatch(this.queue.splice(0));
    } finally {
      this.draining = false;
    }
  }

  async runBatch(batch) {
    if (batch.every((item) => item.op === 'read') && this.readUnlocked(batch)) return;
    let release;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      release = await lockfile.lock(this.file, { ...LOCK_OPTIONS, onCompromised: (error) => this.log(`canvas: the lock on ${this.file} was lost: ${error.message}`) });
    } catch (error) {
      for (const item of batch) item.reject(new Error(`the canvas data folder ${this.dir} is busy or cannot be locked: ${error.message}`));
      return;
    }
    let settle;
    try {
      const before = this.sync();
      let state = before;
      const answers = [];
      const lines = [];
      for (const item of batch) {
        if (item.op === 'read') {
          answers.push(item.read(state));
          continue;
        }
        const outcome = applyCall(state, item.call);
        if (outcome.ok) state = outcome.state;
        answers.push(outcome);
        lines.push(JSON.stringify(this.entry(item, outcome)));
      }
      if (state !== before) this.writeState(state);
      if (lines.length > 0) this.appendHistory(lines);
      this.state = state;
      settle = () => batch.forEach((item, i) => item.resolve(answers[i]));
    } catch (error) {
      // Whatever reached the disk is read again by the next batch.
      this.known = undefined;
      settle = () => batch.forEach((item) => item.reject(error));
    }
    // Answered once the lock is free again, so a caller that goes on to another process finds the folder unlocked.
    await release().catch((error) => this.log(`canvas: could not release the lock on ${this.file}: ${error.message}`));
    settle();
  }

  /**
   * Answers a batch of reads without the lock, from the cached state or the
   * file as it is: writers replace it by rename, so it is always one whole
   * version. False (the caller takes the lock) when the file cannot be read
   * as it is: only a locked batch may move a broken file aside.
   */
  readUnlocked(batch) {
    let state;
    try {
      const stat = fs.statSync(this.file, { throwIfNoEntry: false });
      if (!stat) {
        state = initialState();
      } else if (this.state && this.known && stat.ino === this.known.ino && stat.size === this.known.size && stat.mtimeMs === this.known.mtimeMs) {
        state = this.state;
      } else {
        // Read after the stat: if the file was replaced in between, the stat is older than what was read, so the next look reads again.
        state = this.state = checkState(JSON.parse(fs.readFileSync(this.file, 'utf8')));
        this.known = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
      }
    } catch {
      return false;
    }
    const answers = [];
    try {
      for (const item of batch) answers.push(item.read(state));
    } catch (error) {
      batch.forEach((item) => item.reject(error));
      return true;
    }
    batch.forEach((item, i) => item.resolve(answers[i]));
    return true;
  }

  entry(item, outcome) {
    const subject = subjectOf(item.call);
    const result = outcome.ok
      ? { status: 'success', revision: outcome.result.revision, applied: outcome.result.applied }
      : { status: 'error', code: outcome.error.code, message: outcome.error.message, ...(outcome.error.patch_index === undefined ? {} : { patch_index: outcome.error.patch_index }) };
    return { id: randomUUID(), at: new Date(this.now()).toISOString(), ...subject, caller: item.caller ?? { kind: 'client' }, patches: patchesForHistory(item.call?.patches), result };
  }

  /** The state on disk: the cached one unless another process replaced the file since. */
  sync() {
    const stat = fs.statSync(this.file, { throwIfNoEntry: false });
    if (!stat) {
      this.known = undefined;
      return (this.state = initialState());
    }
    if (this.state && this.known && stat.ino === this.known.ino && stat.size === this.known.size && stat.mtimeMs === this.known.mtimeMs) return this.state;
    try {
      this.state = checkState(JSON.parse(fs.readFileSync(this.file, 'utf8')));
    } catch (error) {
      // Never silently replaced: the unreadable file is kept beside, and the canvas starts again from the demo.
      const aside = path.join(this.dir, `canvas-instances.broken-${new Date(this.now()).toISOString().replace(/[:.]/g, '-')}.json`);
      fs.renameSync(this.file, aside);
      this.log(`canvas: ${this.file} could not be read (${error.message}); it was moved to ${aside} and the canvas starts again`);
      this.known = undefined;
      return (this.state = initialState());
    }
    this.known = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    return this.state;
  }

  writeState(state) {
    const temp = `${this.file}.${process.pid}.tmp`;
    const fd = fs.openSync(temp, 'w');
    try {
      fs.writeFileSync(fd, JSON.stringify({ version: 1, ...state }));
      if (this.fsync) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, this.file);
    const stat = fs.statSync(this.file);
    this.known = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
  }

  appendHistory(lines) {
    fs.appendFileSync(this.historyFile, `${lines.join('\n')}\n`);
    if (fs.statSync(this.historyFile).size <= this.historyMaxBytes) return;
    const kept = fs.readFileSync(this.historyFile, 'utf8').split('\n').filter(Boolean).slice(-this.historyKeep);
    const temp = `${this.historyFile}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${kept.join('\n')}\n`);
    fs.renameSync(temp, this.historyFile);
  }
}
