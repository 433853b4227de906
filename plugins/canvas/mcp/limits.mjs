// The canvas's size bounds, apart from the zod schemas (uiSchema.mjs) so that
// the MCP App view (app/mcpView.mjs), which bundles no zod of its own, can
// hold a tool result to the same bounds as the server.

/** Bounds that keep one instance (and the store of all of them) small enough to rewrite on every call. */
export const LIMITS = Object.freeze({
  instances: 100,
  patchesPerCall: 200,
  blocks: 50,
  actions: 20,
  fieldsPerBlock: 50,
  options: 100,
  /** The JSON text of one whole instance schema. */
  schemaBytes: 256 * 1024,
  /** Nesting of a value in state.params / state.runtime. */
  jsonDepth: 32,
});
