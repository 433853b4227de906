import { readBundleToOpen } from '../../core/facades/plugins.js';

type BundleToOpen = ReturnType<typeof readBundleToOpen>;

/** A few at most: each holds a bundle's bytes until a window takes it. */
const MAX_WAITING = 8;

/**
 * Bundles the desktop was asked to open (docs/using/bundles.md#opening-a-bundle-file), read when asked and held until
 * the window takes them: a file opened while ChatOS starts arrives before any window is there to show it. A refused
 * one waits too, so the window says why it was not opened.
 */
export class OpenedBundles {
  private readonly waiting: BundleToOpen[] = [];

  constructor(private readonly maxBytes: number) {}

  add(file: string, cwd: string): BundleToOpen {
    const read = readBundleToOpen(file, cwd, this.maxBytes);
    this.waiting.push(read);
    if (this.waiting.length > MAX_WAITING) this.waiting.shift();
    return read;
  }

  take(): BundleToOpen | undefined {
    return this.waiting.shift();
  }
}
