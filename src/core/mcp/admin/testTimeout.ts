// A module of its own, with no imports: `chatos mcp test --help` names the default without loading the MCP admin.

/** How long a test waits for a server to start and list its tools: npx and uvx may download it first. */
export const DEFAULT_TEST_TIMEOUT_MS = 60_000;
