/** Hot reload: mcp.yaml and the plugin roots watched (fs.watch plus polling, debounced). */
export interface WatcherFacade {
  /** Starts watching; a change rescans the plugins and/or reloads the servers. Returns the function that stops watching. */
  watch(options?: { debounceMs?: number; pollMs?: number }): () => void;
}
