import { describe, expect, it } from 'vitest';
import { folderEdges, layersOf, levelsOf } from '../../scripts/architectureFigures.js';

/** The figure the architecture page quotes: imports between folders of src/core that run back up, counted exactly. */

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

describe('architecture figures', () => {
  it('finds no back-import in folders that form layers, and orders them bottom first', () => {
    const { order, backImports, exact } = layersOf(graph({ chat: ['models', 'store'], models: ['store'], store: [] }));
    expect(backImports).toEqual([]);
    expect(exact).toBe(true);
    expect(order.indexOf('store')).toBeLessThan(order.indexOf('models'));
    expect(order.indexOf('models')).toBeLessThan(order.indexOf('chat'));
    expect(levelsOf(order, graph({ chat: ['models', 'store'], models: ['store'], store: [] }))).toEqual([['store'], ['models'], ['chat']]);
  });

  it('counts the fewest imports whose removal breaks every loop', () => {
    // a → b → c → a is one loop: one import must run back up. d ↔ c adds a second loop through c.
    const { backImports } = layersOf(graph({ a: ['b'], b: ['c'], c: ['a', 'd'], d: ['c'] }));
    expect(backImports).toHaveLength(2);
    // A loop where one import is shared by both cycles needs only that one: x → y → x and x → y → z → x.
    expect(layersOf(graph({ x: ['y'], y: ['x', 'z'], z: ['x'] })).backImports).toEqual([['x', 'y']]);
  });

  it('collapses files to their top-level folder of src/core, counting each folder pair once', () => {
    const edges = folderEdges([
      {
        source: 'src/core/chat/a.ts',
        dependencies: [{ resolved: 'src/core/models/m.ts' }, { resolved: 'src/core/models/n.ts' }, { resolved: 'src/core/chat/b.ts' }, { resolved: 'node_modules/zod/index.js' }],
      },
      { source: 'src/core/host.ts', dependencies: [{ resolved: 'src/core/chat/a.ts' }] },
      { source: 'src/shared/x.ts', dependencies: [] },
    ]);
    expect(edges).toEqual(graph({ chat: ['models'], 'host.ts': ['chat'] }));
  });
});
