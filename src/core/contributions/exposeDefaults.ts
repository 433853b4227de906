import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { exposeDefaultsBaseName } from '../naming/names.js';
import type { Problem } from '../../shared/problems.js';
import { sameStamp, stampFile, type FileStamp } from '../files/fileStamps.js';
import { readProblem, readRegularText } from '../files/readRegularFile.js';
import { parseByExtension } from '../problems/textFiles.js';
import { zodIssuesToProblems } from '../problems/zodProblems.js';

export const ExposeDefaultsFileSchema = z.object({
  mcpServers: z.array(z.string()).optional(),
  prompts: z.array(z.string()).optional(),
});
export type ExposeDefaultsFile = z.infer<typeof ExposeDefaultsFileSchema>;

export interface ExposeDefaultsEntry {
  file: string;
  lists?: ExposeDefaultsFile;
  problems: Problem[];
}

const EXTENSIONS = ['.yaml', '.yml', '.json'];
/** Two lists of names: far below this. */
const MAX_EXPOSE_DEFAULTS_BYTES = 256 * 1024;

/**
 * The bundled default exposure lists (`defaults/ui-apps-expose/`, docs/rules/names-and-exposure.md#exposure).
 * `refresh()` lists the folder once per scan; a file is parsed again only
 * when its stamp changed, so a rescan of 1,000 plugins costs one readdir.
 */
export class ExposeDefaults {
  private files = new Map<string, string>();
  private readonly parsed = new Map<string, { stamp: FileStamp; entry: ExposeDefaultsEntry }>();

  constructor(private readonly dir: string | undefined) {}

  refresh(): void {
    this.files.clear();
    if (!this.dir) return;
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return; // no defaults folder: nothing exposed by default
    }
    for (const name of names) {
      const ext = path.extname(name).toLowerCase();
      if (!EXTENSIONS.includes(ext)) continue;
      const base = name.slice(0, -ext.length);
      const current = this.files.get(base);
      // .yaml wins over .yml wins over .json when several exist.
      if (!current || EXTENSIONS.indexOf(ext) < EXTENSIONS.indexOf(path.extname(current).toLowerCase())) {
        this.files.set(base, path.join(this.dir, name));
      }
    }
  }

  lookup(pluginId: string, appId: string): ExposeDefaultsEntry | undefined {
    const file = this.files.get(exposeDefaultsBaseName(pluginId, appId));
    if (!file) return undefined;
    const stamp = stampFile(file);
    const cached = this.parsed.get(file);
    if (cached && sameStamp(cached.stamp, stamp)) return cached.entry;
    const entry = this.load(file);
    this.parsed.set(file, { stamp, entry });
    return entry;
  }

  private load(file: string): ExposeDefaultsEntry {
    const read = readRegularText(file, { maxBytes: MAX_EXPOSE_DEFAULTS_BYTES });
    if (!read.ok) return { file, problems: [readProblem(read, file)] };
    const parsed = parseByExtension(read.text, file);
    if (!parsed.ok) return { file, problems: [parsed.problem] };
    const checked = ExposeDefaultsFileSchema.safeParse(parsed.value);
    if (!checked.success) return { file, problems: zodIssuesToProblems(checked.error.issues, parsed.value, file) };
    return { file, lists: checked.data, problems: [] };
  }
}
