import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import initSqlJs, { type BindParams, type Database, type SqlJsStatic, type Statement } from 'sql.js';
import { RegistryCenter } from '../../src/core/registry/registryCenter.js';
import { grantPrefix, grantRowId, McpServerGrants, PromptGrants, providerPrefix, RegistryMcpServers, RegistryPrompts, registryId } from '../../src/core/registry/registryTables.js';
import { SQL_GET, SQL_LIST_RANGE } from '../../src/core/store/recordsDb.js';
import { RecordsStore } from '../../src/core/store/recordsStore.js';
import type { RegistrySource } from '../../src/shared/registry.js';
import { mulberry32 } from '../seededRandom.js';
import { atMost, below, check, grouped, info, median, percentile, type BenchRow, type BenchSection } from './section.js';

/**
 * The registry center on real sql.js files: a DB per size is built in one
 * transaction, flushed and closed, then reopened, so the measured store is
 * the one loaded from disk (as the host loads it at start).
 *
 * Records = registered servers + prompts + grants (app registrations, 50
 * rows, come on top). They are spread over 50 provider apps; one of them,
 * MEASURED, has the same shape at every size (10 own servers, 5 server
 * grants), so its query returns the same 15 rows and any growth in its
 * time is the registry's, not the answer's.
 */

const SIZES = [1_000, 10_000, 100_000] as const;
const PROVIDERS = Array.from({ length: 50 }, (_, i) => `prov_${String(i).padStart(2, '0')}`);
/** In the middle of the key space, so neither end of the index is favoured. */
const MEASURED = 'prov_24';
const OTHERS = PROVIDERS.filter((p) => p !== MEASURED);
const OWN_SERVERS = 10;
const OWN_GRANTS = 5;

const OPEN_RUNS = 5;
const WARMUP_CALLS = 300;
const VISIBLE_CALLS = 3000;
const ACCESS_CALLS = 4000;
const FLUSH_RUNS = 5;
const BURST = 100;
const SPACED_GAP_MS = 5;
const MANY_GRANTS_CALLS = 200;

const QUERY_TARGET_US = 1000;
const FLAT_LIMIT = 5;
const BURST_WRITES_LIMIT = 2;

const clock = { now: () => Date.now() };
const MiB = 1024 * 1024;

/** Registry queries run SELECT … WHERE table_name = ? AND id = ? on the same primary key; these mirror the store's own statements. */
const RAW_HAS = 'SELECT 1 FROM records WHERE table_name = ? AND id = ?';

interface Plan {
  size: number;
  servers: number;
  prompts: number;
  serverGrants: number;
  promptGrants: number;
}

function planFor(size: number): Plan {
  const rest = size - OWN_SERVERS - OWN_GRANTS;
  const servers = Math.round(rest * 0.4);
  const prompts = Math.round(rest * 0.3);
  const grants = rest - servers - prompts;
  const serverGrants = Math.ceil(grants / 2);
  return { size, servers, prompts, serverGrants, promptGrants: grants - serverGrants };
}

const pad = (n: number) => String(n).padStart(6, '0');
const serverProvider = (i: number) => OTHERS[i % OTHERS.length]!;
const serverId = (i: number) => registryId(serverProvider(i), `srv_${pad(i)}`);
const promptId = (i: number) => registryId(serverProvider(i), `prm_${pad(i)}`);
const ownServerId = (j: number) => registryId(MEASURED, `own_${j}`);
const sourceOf = (provider: string): RegistrySource => ({ kind: 'app-db', file: `/home/bench/.chatos/${provider}/admin.db` });

function serverConfig(name: string, provider: string, description = `Bench server ${name} of ${provider}: file, search and note tools.`) {
  return { name, url: `cmd://node /opt/chatos/${provider}/servers/${name}.js --stdio`, description, tags: ['bench', provider], env: { LOG_LEVEL: 'info' } };
}

/** Targets of the grants MEASURED holds: spread over the server key space. */
function measuredGrantTargets(plan: Plan): string[] {
  return Array.from({ length: OWN_GRANTS }, (_, k) => serverId(Math.floor(((k + 0.5) * plan.servers) / OWN_GRANTS)));
}

/**
 * Grant g goes to grantee g % 49 and targets one of `count` items; for a
 * fixed grantee the k-th grant takes offset + k * step, distinct for every
 * k, so no grant id repeats.
 */
function grantTarget(g: number, total: number, count: number): { grantee: string; index: number } {
  const granteeIndex = g % OTHERS.length;
  const perGrantee = Math.ceil(total / OTHERS.length);
  const step = Math.max(1, Math.floor(count / perGrantee));
  const k = Math.floor(g / OTHERS.length);
  return { grantee: OTHERS[granteeIndex]!, index: (granteeIndex * 7919 + k * step) % count };
}

async function buildDb(file: string, plan: Plan): Promise<number> {
  const started = performance.now();
  const store = await RecordsStore.open(file, { clock });
  const registry = new RegistryCenter(store, clock);
  const grantedAt = new Date(clock.now()).toISOString();
  store.transaction(() => {
    for (const provider of PROVIDERS) registry.registerApp(provider, 'app-db');
    for (let j = 0; j < OWN_SERVERS; j++) registry.registerMcpServer(MEASURED, serverConfig(`own_${j}`, MEASURED), sourceOf(MEASURED));
    for (let i = 0; i < plan.servers; i++) registry.registerMcpServer(serverProvider(i), serverConfig(`srv_${pad(i)}`, serverProvider(i)), sourceOf(serverProvider(i)));
    for (let i = 0; i < plan.prompts; i++) {
      const provider = serverProvider(i);
      const name = `prm_${pad(i)}`;
      const content = `You are the ${name} assistant of ${provider}. Use its tools for files and search; answer briefly and cite the files you read. `.repeat(2);
      registry.registerPrompt(provider, { name, title: `Prompt ${name}`, content, lang: 'en' }, sourceOf(provider));
    }
    // grant() refreshes from disk first, which a transaction forbids, so bulk grants are rows put directly (the layout registryTables defines).
    for (let g = 0; g < plan.serverGrants; g++) {
      const { grantee, index } = grantTarget(g, plan.serverGrants, plan.servers);
      const targetId = serverId(index);
      store.put(McpServerGrants, grantRowId(grantee, targetId), { appId: grantee, targetId, grantedAt });
    }
    for (let g = 0; g < plan.promptGrants; g++) {
      const { grantee, index } = grantTarget(g, plan.promptGrants, plan.prompts);
      const targetId = promptId(index);
      store.put(PromptGrants, grantRowId(grantee, targetId), { appId: grantee, targetId, grantedAt });
    }
  });
  // MEASURED's grants go through the real API.
  for (const target of measuredGrantTargets(plan)) check(registry.grantMcpServerAccess(MEASURED, target) === 'created', `grant ${target} to ${MEASURED}`);
  const records = store.count(RegistryMcpServers) + store.count(RegistryPrompts) + store.count(McpServerGrants) + store.count(PromptGrants);
  check(records === plan.size, `built ${records} records, expected ${plan.size}`);
  await store.close();
  return performance.now() - started;
}

/**
 * The baseline for the query figures: the same primary-key lookups and
 * range scans, as raw sql.js statements on a plain in-memory copy of the
 * same file, without the store or the registry around them.
 *
 * Why not a Map.get of the same ids: that is an O(1) hash probe of ~50 ns,
 * so "registry / Map" would be in the thousands whatever the registry did
 * and would say nothing about it. Every sql.js-backed registry has to pay
 * the B-tree walk at least once per lookup; the raw statements are that
 * floor on this machine and this DB, so registry/raw is exactly what the
 * store and the registry add (the refresh() stat, JSON.parse, schema
 * validation, objects), and raw 100k/1k says how flat the index itself is.
 */
class RawSql {
  private readonly statements = new Map<string, Statement>();
  constructor(readonly db: Database) {}

  rows(sql: string, params: BindParams): unknown[][] {
    const statement = this.prepare(sql);
    try {
      statement.bind(params);
      const out: unknown[][] = [];
      while (statement.step()) out.push(statement.get());
      return out;
    } finally {
      statement.reset();
    }
  }

  has(table: string, id: string): boolean {
    return this.rows(RAW_HAS, [table, id]).length > 0;
  }

  close(): void {
    for (const statement of this.statements.values()) statement.free();
    this.db.close();
  }

  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}

/** `prefix <= id < upper` selects the ids starting with prefix; registry prefixes end in ASCII, so bumping the last char is enough. */
const upper = (prefix: string) => prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/** getMcpServersForApp, done with raw statements: own servers by range, grants by range, one primary-key get per granted server. */
function rawVisibleServers(raw: RawSql, appId: string): unknown[][] {
  const own = providerPrefix(appId);
  const rows = raw.rows(SQL_LIST_RANGE, [RegistryMcpServers.name, own, upper(own)]);
  const seen = new Set(rows.map((row) => row[0]));
  const grants = grantPrefix(appId);
  for (const grant of raw.rows(SQL_LIST_RANGE, [McpServerGrants.name, grants, upper(grants)])) {
    const target = String(grant[0]).slice(grants.length);
    if (seen.has(target)) continue;
    const row = raw.rows(SQL_GET, [RegistryMcpServers.name, target])[0];
    if (row) {
      rows.push(row);
      seen.add(target);
    }
  }
  return rows;
}

function rawHasServerAccess(raw: RawSql, appId: string, id: string): boolean {
  if (!raw.has(RegistryMcpServers.name, id)) return false;
  if (id.startsWith(providerPrefix(appId))) return true;
  return raw.has(McpServerGrants.name, grantRowId(appId, id));
}

/** Microseconds of each call of `a` and of `b`, interleaved so drift (other load on the machine) hits both alike. */
function sampleInterleaved(calls: number, a: (i: number) => void, b: (i: number) => void): { a: number[]; b: number[] } {
  for (let i = 0; i < WARMUP_CALLS; i++) {
    a(i);
    b(i);
  }
  const samplesA = new Array<number>(calls);
  const samplesB = new Array<number>(calls);
  for (let i = 0; i < calls; i++) {
    let t = performance.now();
    a(i);
    samplesA[i] = (performance.now() - t) * 1000;
    t = performance.now();
    b(i);
    samplesB[i] = (performance.now() - t) * 1000;
  }
  return { a: samplesA, b: samplesB };
}

/** The floor of any whole-file save: write the image to a temp file, fsync, rename over, fsync the folder. */
function rawAtomicWrite(file: string, bytes: Uint8Array): void {
  const temp = `${file}.raw-tmp`;
  const fd = fs.openSync(temp, 'w', 0o600);
  try {
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until the store's batched background flush has written everything. */
async function settled(store: RecordsStore): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (store.pendingChanges > 0) {
    check(performance.now() < deadline, `${store.file}: ${store.pendingChanges} changes still unflushed after 60 s`);
    await sleep(5);
  }
  await store.flush(); // waits for a flush still under way
}

interface SizeResult {
  plan: Plan;
  buildMs: number;
  fileBytes: number;
  openMs: number[];
  rawLoadMs: number[];
  visibleUs: number[];
  rawVisibleUs: number[];
  accessUs: number[];
  rawAccessUs: number[];
  noChangeReconcileMs: number;
  reconcileMs: number;
  keptGrants: number;
  manyGrantsUs: number[];
  flushMs: number[];
  flushFileBytes: number;
  rawWriteMs: number[];
  burstWrites: number;
  burstBytes: number;
  burstMs: number;
  spacedWrites: number;
  spacedBytes: number;
}

async function measureSize(SQL: SqlJsStatic, dir: string, size: number): Promise<SizeResult> {
  const plan = planFor(size);
  const file = path.join(dir, 'admin.db');
  const buildMs = await buildDb(file, plan);
  const fileBytes = fs.statSync(file).size;

  // Open as the host does (default options: load, hash, integrity check, backup check). The last one stays open and is measured.
  const openMs: number[] = [];
  const rawLoadMs: number[] = [];
  let store: RecordsStore | undefined;
  let raw: RawSql | undefined;
  for (let run = 0; run < OPEN_RUNS; run++) {
    await store?.close();
    raw?.close();
    let started = performance.now();
    store = await RecordsStore.open(file, { clock });
    openMs.push(performance.now() - started);
    check(store.problems.length === 0, `open ${file}: ${store.problems[0]?.message}`);
    // Baseline: read the file and hand it to sql.js, no checks.
    started = performance.now();
    raw = new RawSql(new SQL.Database(fs.readFileSync(file)));
    rawLoadMs.push(performance.now() - started);
  }
  check(store && raw, 'opened');
  const registry = new RegistryCenter(store, clock);

  try {
    // getMcpServersForApp: the same app every call (its answer is 15 rows at every size).
    const expected = [...Array.from({ length: OWN_SERVERS }, (_, j) => ownServerId(j)), ...measuredGrantTargets(plan)].sort();
    const got = registry
      .getMcpServersForApp(MEASURED)
      .map((row) => row.id)
      .sort();
    check(JSON.stringify(got) === JSON.stringify(expected), `getMcpServersForApp(${MEASURED}) at ${size}: got ${got.length} rows [${got.slice(0, 3).join(', ')}…], expected ${expected.length}`);
    check(rawVisibleServers(raw, MEASURED).length === expected.length, `raw visible servers at ${size}`);
    const rawDb = raw;
    let visibleRows = 0;
    const visible = sampleInterleaved(
      VISIBLE_CALLS,
      () => (visibleRows += registry.getMcpServersForApp(MEASURED).length),
      () => rawVisibleServers(rawDb, MEASURED),
    );
    check(visibleRows === (VISIBLE_CALLS + WARMUP_CALLS) * expected.length, 'getMcpServersForApp answers changed while measured');

    // hasMcpServerAccess: own servers and granted ones (hits), other providers' servers and unknown ids (misses), shuffled.
    const rand = mulberry32(size); // seeded: the same probes every run
    const granted = new Set(measuredGrantTargets(plan));
    const probes: { id: string; expect: boolean }[] = [];
    for (let j = 0; j < OWN_SERVERS; j++) probes.push({ id: ownServerId(j), expect: true });
    for (const id of granted) probes.push({ id, expect: true });
    while (probes.length < 45) {
      const id = serverId(Math.floor(rand() * plan.servers));
      if (!granted.has(id)) probes.push({ id, expect: false });
    }
    for (let n = 0; n < 15; n++) probes.push({ id: registryId(OTHERS[Math.floor(rand() * OTHERS.length)]!, `gone_${n}`), expect: false });
    const order = Array.from({ length: ACCESS_CALLS + WARMUP_CALLS }, () => probes[Math.floor(rand() * probes.length)]!);
    let wrong = 0;
    const access = sampleInterleaved(
      ACCESS_CALLS,
      (i) => {
        if (registry.hasMcpServerAccess(MEASURED, order[i]!.id) !== order[i]!.expect) wrong++;
      },
      (i) => {
        if (rawHasServerAccess(rawDb, MEASURED, order[i]!.id) !== order[i]!.expect) wrong++;
      },
    );
    check(wrong === 0, `hasMcpServerAccess gave ${wrong} wrong answers`);
    raw.close();
    raw = undefined;

    // A provider re-sync that drops one server: what registrySync does when an app removes a server (it is marked missing, its grants kept).
    const provider = OTHERS[7]!;
    const ownServers = store.list(RegistryMcpServers, { prefix: providerPrefix(provider) }).map((r) => r.payload);
    const ownPrompts = store.list(RegistryPrompts, { prefix: providerPrefix(provider) }).map((r) => r.payload);
    const dropped = ownServers[ownServers.length - 1]!;
    const owns = (source: RegistrySource, providerAppId: string) => providerAppId === provider && source.kind === 'app-db';
    // The common case (a rescan where nothing changed): same rows, so nothing is written, but every row is still listed.
    let started = performance.now();
    const missingReason = () => 'dropped by the bench';
    const unchanged = registry.reconcile(owns, { servers: ownServers, prompts: ownPrompts }, { missingReason });
    const noChangeReconcileMs = performance.now() - started;
    check(unchanged.created.length + unchanged.updated.length + unchanged.missing.length === 0 && store.pendingChanges === 0, 'no-change reconcile changed nothing');
    started = performance.now();
    const report = registry.reconcile(owns, { servers: ownServers.slice(0, -1), prompts: ownPrompts }, { missingReason });
    const reconcileMs = performance.now() - started;
    check(
      report.missing.length === 1 && report.missing[0] === dropped.id && report.created.length === 0 && report.updated.length === 0,
      `reconcile dropping ${dropped.id}: ${JSON.stringify(report).slice(0, 200)}`,
    );
    const keptGrants = registry.listGrants('server').filter((g) => g.targetId === dropped.id).length;
    await store.flush();

    // One flush: a single changed row, then flush.
    const flushMs: number[] = [];
    for (let run = 0; run < FLUSH_RUNS; run++) {
      const writes = store.stats.fileWrites;
      started = performance.now();
      registry.registerMcpServer(MEASURED, serverConfig('own_0', MEASURED, `flush probe ${run}`), sourceOf(MEASURED));
      await store.flush();
      flushMs.push(performance.now() - started);
      check(store.stats.fileWrites === writes + 1, `flush ${run} wrote ${store.stats.fileWrites - writes} times`);
    }
    const flushFileBytes = fs.statSync(file).size;
    // Baseline: export the same DB image and write it atomically, nothing else (no lock, no re-read, no hash).
    const rawWriteMs: number[] = [];
    const image = new SQL.Database(fs.readFileSync(file));
    try {
      for (let run = 0; run < FLUSH_RUNS; run++) {
        started = performance.now();
        rawAtomicWrite(path.join(dir, 'raw-copy.db'), image.export());
        rawWriteMs.push(performance.now() - started);
      }
    } finally {
      image.close();
    }

    // Write amplification: 100 grants in one burst through the real API, then the batched flush.
    const fresh = Array.from({ length: plan.servers }, (_, i) => serverId(i)).filter((id) => !granted.has(id));
    const burstTargets = fresh.filter((_, i) => i % 2 === 0).slice(0, BURST);
    const spacedTargets = fresh.filter((_, i) => i % 2 === 1).slice(0, BURST);
    check(burstTargets.length === BURST && spacedTargets.length === BURST, 'enough servers to grant');
    let before = { ...store.stats };
    started = performance.now();
    for (const target of burstTargets) check(registry.grantMcpServerAccess(MEASURED, target) === 'created', `burst grant ${target}`);
    await settled(store);
    const burstMs = performance.now() - started;
    const burstWrites = store.stats.fileWrites - before.fileWrites;
    const burstBytes = store.stats.bytesWritten - before.bytesWritten;

    // The same 100 grants, one every 5 ms (a script granting in a loop with awaits): the batching window no longer covers them.
    before = { ...store.stats };
    for (const target of spacedTargets) {
      check(registry.grantMcpServerAccess(MEASURED, target) === 'created', `spaced grant ${target}`);
      await sleep(SPACED_GAP_MS);
    }
    await settled(store);
    const spacedWrites = store.stats.fileWrites - before.fileWrites;
    const spacedBytes = store.stats.bytesWritten - before.bytesWritten;
    check(registry.getMcpServersForApp(MEASURED).length === expected.length + 2 * BURST, 'all burst grants visible');
    // The same query once the app holds 205 grants: the cost follows the app's grants (one primary-key get each), not the registry.
    const manyGrantsUs: number[] = [];
    for (let i = 0; i < MANY_GRANTS_CALLS; i++) {
      const t = performance.now();
      registry.getMcpServersForApp(MEASURED);
      manyGrantsUs.push((performance.now() - t) * 1000);
    }

    return {
      plan,
      buildMs,
      fileBytes,
      openMs,
      rawLoadMs,
      visibleUs: visible.a,
      rawVisibleUs: visible.b,
      accessUs: access.a,
      rawAccessUs: access.b,
      noChangeReconcileMs,
      reconcileMs,
      keptGrants,
      manyGrantsUs,
      flushMs,
      flushFileBytes,
      rawWriteMs,
      burstWrites,
      burstBytes,
      burstMs,
      spacedWrites,
      spacedBytes,
    };
  } finally {
    raw?.close();
    await store.close();
  }
}

const label = (size: number) => (size >= 1000 ? `${size / 1000}k` : String(size));

function sizeRows(r: SizeResult): BenchRow[] {
  const n = label(r.plan.size);
  return grouped(
    `${n} records (${r.plan.servers + OWN_SERVERS} servers, ${r.plan.prompts} prompts, ${r.plan.serverGrants + r.plan.promptGrants + OWN_GRANTS} grants; file ${(r.fileBytes / MiB).toFixed(1)} MiB)`,
    [
      info('build DB in one transaction + close (setup, not a target)', r.buildMs, 'ms'),
      info(`RecordsStore.open (load, hash, quick_check, backup check), median of ${OPEN_RUNS}`, median(r.openMs), 'ms'),
      info(`getMcpServersForApp (15 rows), median of ${VISIBLE_CALLS}`, median(r.visibleUs), 'µs'),
      info(`getMcpServersForApp, p99`, percentile(r.visibleUs, 99), 'µs'),
      info(`hasMcpServerAccess (hits and misses), median of ${ACCESS_CALLS}`, median(r.accessUs), 'µs'),
      info(`hasMcpServerAccess, p99`, percentile(r.accessUs, 99), 'µs'),
      info(`getMcpServersForApp after the grant bursts (${OWN_SERVERS + OWN_GRANTS + 2 * BURST} rows), median of ${MANY_GRANTS_CALLS}`, median(r.manyGrantsUs), 'µs'),
      info('reconcile one provider, nothing changed', r.noChangeReconcileMs, 'ms'),
      info(`reconcile one provider dropping 1 server (marked missing, ${r.keptGrants} grants kept)`, r.reconcileMs, 'ms'),
      info(`single put + flush, median of ${FLUSH_RUNS}`, median(r.flushMs), 'ms'),
      info('file size after flush', r.flushFileBytes / MiB, 'MiB'),
      atMost(`burst of ${BURST} grants: file writes`, r.burstWrites, 'writes', BURST_WRITES_LIMIT),
      info(`burst of ${BURST} grants: bytes written / DB size`, r.burstBytes / r.flushFileBytes, 'x'),
      info(`burst of ${BURST} grants: bytes written`, r.burstBytes / MiB, 'MiB'),
      info(`burst of ${BURST} grants: until on disk`, r.burstMs, 'ms'),
      info(`${BURST} grants ${SPACED_GAP_MS} ms apart: file writes`, r.spacedWrites, 'writes'),
      info(`${BURST} grants ${SPACED_GAP_MS} ms apart: bytes written / DB size`, r.spacedBytes / r.flushFileBytes, 'x'),
    ],
  );
}

export async function runRegistryBench(): Promise<BenchSection> {
  const SQL = await initSqlJs();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-bench-registry-'));
  try {
    const results: SizeResult[] = [];
    for (const size of SIZES) {
      const dir = path.join(root, label(size));
      fs.mkdirSync(dir);
      results.push(await measureSize(SQL, dir, size));
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const first = results[0]!;
    const last = results[results.length - 1]!;
    const big = label(last.plan.size);
    const small = label(first.plan.size);
    const ratio = (pick: (r: SizeResult) => number) => pick(last) / pick(first);
    const flatRow = (name: string, value: number): BenchRow => ({ ...info(name, value, 'x'), target: `<= ${FLAT_LIMIT} x`, pass: value <= FLAT_LIMIT });

    return {
      title: `Registry on sql.js: ${SIZES.map(label).join(' / ')} records over ${PROVIDERS.length} provider apps`,
      rows: [
        ...results.flatMap(sizeRows),
        ...grouped(`Targets at ${big}`, [
          below(`getMcpServersForApp median at ${big} (< 1 ms)`, median(last.visibleUs), 'µs', QUERY_TARGET_US),
          below(`hasMcpServerAccess median at ${big} (< 1 ms)`, median(last.accessUs), 'µs', QUERY_TARGET_US),
        ]),
        ...grouped(`Flatness: ${big} / ${small} (medians)`, [
          flatRow(
            'getMcpServersForApp',
            ratio((r) => median(r.visibleUs)),
          ),
          flatRow(
            'hasMcpServerAccess',
            ratio((r) => median(r.accessUs)),
          ),
          info(
            'raw sql.js getMcpServersForApp equivalent',
            ratio((r) => median(r.rawVisibleUs)),
            'x',
          ),
          info(
            'raw sql.js hasMcpServerAccess equivalent',
            ratio((r) => median(r.rawAccessUs)),
            'x',
          ),
          info(
            'RecordsStore.open',
            ratio((r) => median(r.openMs)),
            'x',
          ),
          info(
            'single put + flush',
            ratio((r) => median(r.flushMs)),
            'x',
          ),
          info(
            'reconcile, nothing changed',
            ratio((r) => r.noChangeReconcileMs),
            'x',
          ),
          info(
            'reconcile dropping 1 server',
            ratio((r) => r.reconcileMs),
            'x',
          ),
          info('records', last.plan.size / first.plan.size, 'x'),
        ]),
        ...grouped('Ratios against a raw sql.js baseline measured in the same run (same file, same primary-key statements, no store/registry)', [
          ...results.flatMap((r) => [
            info(`${label(r.plan.size)}: getMcpServersForApp / raw (raw ${median(r.rawVisibleUs).toFixed(1)} µs)`, median(r.visibleUs) / median(r.rawVisibleUs), 'x'),
            info(`${label(r.plan.size)}: hasMcpServerAccess / raw (raw ${median(r.rawAccessUs).toFixed(1)} µs)`, median(r.accessUs) / median(r.rawAccessUs), 'x'),
            info(`${label(r.plan.size)}: flush / raw export + atomic write (raw ${median(r.rawWriteMs).toFixed(1)} ms)`, median(r.flushMs) / median(r.rawWriteMs), 'x'),
            info(`${label(r.plan.size)}: open / raw readFile + new Database (raw ${median(r.rawLoadMs).toFixed(1)} ms)`, median(r.openMs) / median(r.rawLoadMs), 'x'),
          ]),
        ]),
      ],
      notes: [
        `Records = registered servers + prompts + grants (plus ${PROVIDERS.length} app registrations). The measured app ${MEASURED} has ${OWN_SERVERS} own servers and ${OWN_GRANTS} server grants at every size; hasMcpServerAccess probes mix own and granted ids (hits) with other providers' servers and unknown ids (misses).`,
        'Each DB is built, closed and reopened, so the measured store was loaded from disk. The OS file cache is warm (the file was just written).',
        'Query baseline: the same primary-key statements on a plain sql.js copy of the file (not Map.get, which would only compare sql.js with a hash map); see scripts/bench/registryBench.ts.',
        `A flush rewrites the whole file (sql.js keeps the DB in memory), so bytes written per flush = DB size; the burst target is about batching (<= ${BURST_WRITES_LIMIT} writes), not bytes.`,
      ],
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
