/** The packages a plugin may import from the host (docs/plugins/mcp-server.md#packages-a-plugin-gets-from-the-host). */
export const HOST_MODULE_PACKAGES = Object.freeze(['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', 'zod']);

/** A bare specifier naming one of them or a subpath of one (`zod/v4`, `@modelcontextprotocol/sdk/server/mcp.js`). */
export function isHostModule(specifier) {
  return typeof specifier === 'string' && HOST_MODULE_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}
