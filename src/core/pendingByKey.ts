/**
 * Work in progress per key (a plugin's backend being stopped, a server's
 * instances being retired), so that whoever asks for the same work while it
 * runs waits for it instead of finding nothing left to do and returning at
 * once: two faces stopping one plugin (a rescan and an uninstall, say) both
 * return only once it has stopped.
 */
export class PendingByKey<K> {
  private readonly pending = new Map<K, Promise<void>>();

  /** Runs `work` (may be undefined: nothing new to do) and resolves once it and whatever was pending for `key` have finished. */
  track(key: K, work: Promise<void> | undefined): Promise<void> {
    const before = this.pending.get(key);
    if (!work) return before ?? Promise.resolve();
    const all = before ? Promise.all([before, work]).then(() => {}) : work;
    this.pending.set(key, all);
    const forget = () => {
      if (this.pending.get(key) === all) this.pending.delete(key);
    };
    all.then(forget, forget);
    return all;
  }
}
