/**
 * A map that forgets what was used least recently once what it holds
 * weighs more than `budget` (`weigh` says what one value weighs: its
 * characters, say). Map keeps insertion order, so the first key is the
 * oldest; a hit moves its key to the end.
 */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();
  private weight = 0;

  constructor(
    private readonly budget: number,
    private readonly weigh: (value: V, key: K) => number,
  ) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.weight -= this.weigh(old, key);
      this.map.delete(key);
    }
    const weight = this.weigh(value, key);
    if (weight > this.budget) return;
    this.map.set(key, value);
    this.weight += weight;
    for (const [oldest, held] of this.map) {
      if (this.weight <= this.budget) break;
      this.map.delete(oldest);
      this.weight -= this.weigh(held, oldest);
    }
  }
}
