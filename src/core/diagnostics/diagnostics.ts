import type { DiagnosticCheck, DiagnosticsReport } from '../../shared/diagnostics.js';
import type { ServerDefinition, ServerProtocol } from '../../shared/mcp.js';
import type { ServerPathSource } from '../runtime/loginShellPath.js';
import { bundledNode } from '../runtime/nodeRuntime.js';
import { dataHomeCheck, diskCheck } from './dataHomeChecks.js';
import { appCheck, electronCheck, installedElectronBinary, pathCheck } from './environmentChecks.js';
import { headlessPortCheck, uiCheck } from './faceChecks.js';
import { serverChecks } from './serverChecks.js';

/** What one face knows when it asks: the CLI and the desktop app fill it in from where they run. */
export interface DiagnosticsInput {
  appVersion: string;
  home: string;
  mcpConfigFile: string;
  pathSource: ServerPathSource;
  hostEnv: NodeJS.ProcessEnv;
  /** The configured servers, or why they could not be read (the host did not start). */
  servers: readonly ServerDefinition[] | { error: string };
  /** What each server spoke at its last start, by id (docs/using/mcp-servers.md#protocol-eras). */
  protocols?: ReadonlyMap<string, ServerProtocol>;
  headlessPort: number;
  now: number;
}

/** Every check, in the order people read them. */
export async function runDiagnostics(input: DiagnosticsInput): Promise<DiagnosticsReport> {
  const electron = process.versions.electron;
  const binary = electron ? process.execPath : installedElectronBinary();
  const servers: DiagnosticCheck[] =
    'error' in input.servers
      ? [
          {
            id: 'servers',
            status: 'fail',
            summary: `the configured servers could not be read: ${input.servers.error}`,
            fix: "fix what the message names (chatos mcp list shows mcp.yaml's problems)",
            facts: {},
          },
        ]
      : serverChecks(input.servers, input.hostEnv, input.mcpConfigFile, input.now, input.protocols);
  const checks: DiagnosticCheck[] = [
    appCheck(input.appVersion, process.versions.node, bundledNode().label),
    electronCheck(electron, binary),
    dataHomeCheck(input.home),
    diskCheck(input.home),
    pathCheck(input.pathSource),
    ...servers,
    await headlessPortCheck(input.headlessPort),
    uiCheck({ platform: process.platform, env: input.hostEnv, electron: binary !== undefined }),
  ];
  return { checks, ok: checks.every((check) => check.status !== 'fail') };
}
