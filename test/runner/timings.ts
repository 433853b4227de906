import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * How long each test file took in a run, in seconds, by its path from the
 * repository's root. test/durations.json keeps them between runs (committed:
 * a fresh clone on CI has no cache of its own), and the sequencer starts the
 * longest first, so that two workers end together instead of one waiting
 * for the other's last long file.
 */
export type Durations = Record<string, number>;

export const DURATIONS_FILE = path.join(import.meta.dirname, '..', 'durations.json');

export function readDurations(file = DURATIONS_FILE): Map<string, number> {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Durations;
    return new Map(Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  } catch {
    return new Map();
  }
}

/** The durations of `run` over those of `known`, sorted by path, so that a diff shows only what changed. */
export function mergeDurations(known: Map<string, number>, run: Map<string, number>): Durations {
  const merged = new Map([...known, ...run]);
  return Object.fromEntries([...merged].sort(([a], [b]) => (a < b ? -1 : 1)).map(([file, seconds]) => [file, Math.round(seconds * 10) / 10]));
}
