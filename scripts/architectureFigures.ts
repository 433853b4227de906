/**
 * The figures the architecture page quotes (docs/contributing/architecture.md),
 * measured, not remembered:
 *
 * - the folder-level imports inside src/core that run back up: of the imports
 *   between its top-level folders (and loose files), the fewest whose removal
 *   leaves no loop, so the rest form layers (found exactly, per loop of
 *   folders, by dynamic programming over orders; 0 means the folders already
 *   are layers);
 * - import cycles between files in src/ (dependency-cruiser's no-circular);
 * - the members of `Host` (src/core/host.ts) and that file's length.
 *
 *   npm run arch     (builds with tsc, then node dist/scripts/architectureFigures.js)
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { findAppRoot } from '../src/core/appPaths.js';

interface CruiseModule {
  source: string;
  dependencies: { resolved: string; circular?: boolean }[];
}

/** A loop of folders larger than this is ordered greedily (and said so): the exact search is exponential in its size. */
const EXACT_LIMIT = 20;

function cruise(root: string, target: string): CruiseModule[] {
  const bin = path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const run = spawnSync(process.execPath, [bin, target, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0 && !run.stdout) throw new Error(`dependency-cruiser failed: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { modules: CruiseModule[] }).modules;
}

/** `src/core/<entry>/…` → `<entry>` (a folder, or a loose file such as host.ts). */
const entryOf = (file: string) => /^src\/core\/([^/]+)/.exec(file)?.[1];

/** Edges between distinct top-level entries of src/core, each counted once. */
export function folderEdges(modules: readonly CruiseModule[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const module of modules) {
    const from = entryOf(module.source);
    if (!from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    for (const dependency of module.dependencies) {
      const to = entryOf(dependency.resolved);
      if (to && to !== from) edges.get(from)!.add(to);
    }
  }
  return edges;
}

/** Strongly connected components (Tarjan), each a list of nodes. */
function components(nodes: readonly string[], edges: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      found.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

/**
 * An order of one loop's members, bottom first, with the fewest imports
 * running from a lower member to a higher one: exact for up to EXACT_LIMIT
 * members (best[S] = fewest back-imports placing the set S lowest).
 */
function orderLoop(members: readonly string[], edges: Map<string, Set<string>>): { order: string[]; exact: boolean } {
  const n = members.length;
  if (n > EXACT_LIMIT) return { order: [...members].sort(), exact: false };
  const at = new Map(members.map((m, i) => [m, i]));
  // importers[v]: the members that import v (bit mask).
  const importers = new Array<number>(n).fill(0);
  for (const from of members) for (const to of edges.get(from) ?? []) if (at.has(to)) importers[at.get(to)!]! |= 1 << at.get(from)!;
  const bits = (x: number) => {
    let count = 0;
    for (; x; x &= x - 1) count++;
    return count;
  };
  const size = 1 << n;
  const best = new Float64Array(size).fill(Infinity);
  const last = new Int8Array(size).fill(-1);
  best[0] = 0;
  for (let set = 0; set < size; set++) {
    if (best[set] === Infinity) continue;
    for (let v = 0; v < n; v++) {
      if (set & (1 << v)) continue;
      // Placing v above `set`: every member of `set` importing v imports upwards.
      const cost = best[set]! + bits(importers[v]! & set);
      if (cost < best[set | (1 << v)]!) {
        best[set | (1 << v)] = cost;
        last[set | (1 << v)] = v;
      }
    }
  }
  const order: string[] = [];
  for (let set = size - 1; set; set &= ~(1 << last[set]!)) order.unshift(members[last[set]!]!);
  return { order, exact: true };
}

/** Every entry in layers, bottom first, and the imports that run back up against that order. */
export function layersOf(edges: Map<string, Set<string>>): { order: string[]; backImports: [string, string][]; exact: boolean } {
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((to) => [...to])])].sort();
  // Tarjan finds components with the lowest (most imported) first: bottom first.
  let exact = true;
  const order = components(nodes, edges).flatMap((component) => {
    if (component.length === 1) return component;
    const loop = orderLoop(component.sort(), edges);
    exact &&= loop.exact;
    return loop.order;
  });
  const position = new Map(order.map((node, i) => [node, i]));
  const backImports: [string, string][] = [];
  for (const [from, tos] of edges) for (const to of tos) if (position.get(to)! > position.get(from)!) backImports.push([from, to]);
  return { order, backImports: backImports.sort(), exact };
}

/**
 * Each entry's layer: one above the highest entry it imports (the imports
 * that run back up left out), so layer 0 imports nothing else of src/core.
 */
export function levelsOf(order: readonly string[], edges: Map<string, Set<string>>): string[][] {
  const position = new Map(order.map((node, i) => [node, i]));
  const level = new Map<string, number>();
  for (const node of order) {
    const below = [...(edges.get(node) ?? [])].filter((to) => position.get(to)! < position.get(node)!);
    level.set(node, below.length ? Math.max(...below.map((to) => level.get(to)!)) + 1 : 0);
  }
  const levels: string[][] = [];
  for (const node of order) (levels[level.get(node)!] ??= []).push(node);
  return levels.map((nodes) => nodes.sort());
}

/** The member names of `interface Host` in host.ts. */
function hostMembers(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const host = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Host');
  if (!host) throw new Error(`no interface Host in ${file}`);
  return host.members.map((member) => member.name?.getText(source) ?? '(unnamed)');
}

function main(): void {
  const root = findAppRoot();
  const core = cruise(root, 'src/core');
  const edges = folderEdges(core);
  const { order, backImports, exact } = layersOf(edges);
  const all = cruise(root, 'src');
  const cyclic = all.filter((m) => m.dependencies.some((d) => d.circular)).map((m) => m.source);
  const hostFile = path.join(root, 'src', 'core', 'host.ts');
  const members = hostMembers(hostFile);
  const lines = fs.readFileSync(hostFile, 'utf8').split('\n').length - 1;
  const importCount = [...edges.values()].reduce((sum, to) => sum + to.size, 0);
  const out = [
    `src/core: ${order.length} top-level folders and files, ${importCount} imports between them`,
    `folder-level imports that run back up inside src/core: ${backImports.length}${exact ? '' : ' (a loop too large to order exactly: an upper bound)'}`,
    ...backImports.map(([from, to]) => `  ${from} -> ${to}`),
    'layers (each imports only from layers below it):',
    ...levelsOf(order, edges).map((nodes, i) => `  ${i}: ${nodes.join(', ')}`),
    `files in src/ on an import cycle: ${cyclic.length}`,
    ...cyclic.map((file) => `  ${file}`),
    `src/core/host.ts: ${lines} lines; Host members: ${members.length} (${members.join(', ')})`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
