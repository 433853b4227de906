import * as path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { readDurations } from './timings.js';

/**
 * Runs the test files longest first, by test/durations.json. A file it does
 * not know (a new one) counts as long: it runs early, where a failure shows
 * soon. Ties keep vitest's own order.
 */
export default class DurationSequencer extends BaseSequencer {
  private readonly durations = readDurations();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const root = this.ctx.config.root;
    const longest = Math.max(0, ...this.durations.values());
    const seconds = (file: TestSpecification) => this.durations.get(path.relative(root, file.moduleId)) ?? longest;
    return ordered
      .map((file, index) => ({ file, index, seconds: seconds(file) }))
      .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
      .map(({ file }) => file);
  }
}
