// The WSL backend: whether WSL can run here, and the distribution list, with
// the same code as the app's MCP server (../lib/wsl.mjs). The page starts,
// stops and runs commands through the server's tools instead, so the host
// asks the user first as it does for an agent.
import * as wsl from '../lib/wsl.mjs';

export function createUiAppsBackend() {
  return {
    methods: {
      platform: async () => ({ windows: wsl.onWindows(), platform: process.platform, message: wsl.onWindows() ? null : wsl.ONLY_ON_WINDOWS }),
      list: async () => wsl.listDistributions(),
    },
  };
}
