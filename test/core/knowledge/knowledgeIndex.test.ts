import { describe, expect, it } from 'vitest';
import { create, insertMultiple, save } from '@orama/orama';
import { decode, encode } from '@msgpack/msgpack';
import type { Chunk } from '../../../src/shared/knowledge.js';
import { KnowledgeIndex } from '../../../src/core/knowledge/knowledgeIndex.js';
import { VectorRows } from '../../../src/core/knowledge/vectorRows.js';

const chunk = (id: string, text: string, position = 0): Chunk => ({ id, file: `${id}.md`, position, start: 0, end: text.length, heading: '', text });

const CHUNKS = [
  chunk('pests', 'Ladybugs eat aphids; aphids eat roses. Aphids again.'),
  chunk('soil', 'Compost feeds the soil, and the soil feeds the roses.'),
  chunk('water', 'Water roses deeply once a week, in the morning.'),
  chunk('note', 'A note on aphids.'),
];

describe('a knowledge index (words in MiniSearch, vectors in their own rows)', () => {
  it('ranks by BM25, counting a word each time it occurs, and survives a save and load', async () => {
    const index = KnowledgeIndex.empty(null);
    await index.add(CHUNKS);
    // The longer chunk says "aphids" three times, the short note once: counted, the three lead; counted once each, the shorter would.
    expect((await index.search('aphids', 5)).map((h) => h.id)).toEqual(['pests', 'note']);
    expect((await index.search('roses soil', 5))[0]!.id).toBe('soil');

    const { index: loaded, migrated } = await KnowledgeIndex.fromBytes(index.toBytes(), null, undefined);
    expect(migrated).toBe(false);
    expect([...loaded.all()]).toEqual(CHUNKS);
    expect((await loaded.search('compost', 5)).map((h) => h.id)).toEqual(['soil']);
    await loaded.remove(['soil']);
    expect(await loaded.search('compost', 5)).toEqual([]);
    expect((await loaded.search('roses', 5)).map((h) => h.id).sort()).toEqual(['pests', 'water']);
    expect(loaded.size).toBe(3);
  });

  it('reads an index.msp Orama wrote (text there, vectors in vectors.bin) and rewrites it in the new form', async () => {
    const db = create({ schema: { text: 'string' } as never });
    await insertMultiple(db, CHUNKS.map((c) => ({ ...c })) as never);
    const rows = new VectorRows(2);
    rows.add(
      ['pests', 'soil', 'water', 'note'],
      [
        [1, 0],
        [0, 1],
        [1, 1],
        [1, 0],
      ],
    );
    const { index, migrated } = await KnowledgeIndex.fromBytes(encode(save(db)), 2, rows.toBytes());
    expect(migrated).toBe(true);
    expect(index.size).toBe(4);
    // Meaning alone (a query with no word in common) finds the chunk whose vector is nearest.
    expect((await index.search('zzz', 1, [0, 1]))[0]!.id).toBe('soil');
    expect(index.takeVectorsWrite()).toMatchObject({ kind: 'rewrite' });
    const saved = decode(index.toBytes()) as { format: string; chunks: Chunk[] };
    expect(saved.format).toBe('chatos-knowledge-text/1');
    expect(saved.chunks.map((c) => c.id)).toEqual(['pests', 'soil', 'water', 'note']);
  });
});
