import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { CatalogPageSchema, type CatalogPage } from '../../../shared/mcpCatalog.js';
import { readRegularText } from '../../files/readRegularFile.js';
import { writeFileAtomic } from '../../store/dbFile.js';

/**
 * The last answer of each catalog search (docs/rules/catalog.md#offline),
 * so the catalog still lists what it last saw when the registry cannot be
 * reached. Only views the core built are kept (never the registry's raw
 * JSON); a cached file is read bounded and checked like any input, and one
 * that does not pass is as good as none.
 */

const CachedSchema = z.object({ savedAt: z.string(), page: CatalogPageSchema });
const MAX_CACHED_BYTES = 8 * 1024 * 1024;

export class CatalogCache {
  constructor(
    private readonly dir: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  save(key: string, page: CatalogPage): void {
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileAtomic(this.file(key), Buffer.from(JSON.stringify({ savedAt: this.now().toISOString(), page })));
    } catch {
      // A cache that cannot be written costs only the offline copy; the answer itself is shown.
    }
  }

  load(key: string): z.infer<typeof CachedSchema> | undefined {
    const read = readRegularText(this.file(key), { maxBytes: MAX_CACHED_BYTES });
    if (!read.ok) return undefined;
    try {
      const parsed = CachedSchema.safeParse(JSON.parse(read.text));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** One file per search: the key (registry, words, cursor, size) hashed, so no part of it names a path. */
  private file(key: string): string {
    return path.join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
  }
}
