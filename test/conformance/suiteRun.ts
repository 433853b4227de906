import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * One client scenario of an official MCP conformance suite against the host's
 * own connection code: the suite's CLI starts a scenario server and runs
 * scripts/conformanceClient.ts (built by `npm test`) with the server's URL.
 * Everything runs on loopback: the CLI is run from node_modules by path,
 * never through npx, on this process's own Node, as the host runs.
 */

export const adapter = path.join(repoRoot, 'dist', 'scripts', 'conformanceClient.js');

/** The CLI of a suite installed under node_modules/<name> (the stable one, or an npm alias of a pre-release). */
export const suiteCli = (name: string) => path.join(repoRoot, 'node_modules', ...name.split('/'), 'dist', 'index.js');

export interface Check {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: Record<string, unknown>;
}

export interface SuiteRun {
  code: number | null;
  stderr: string;
  checks: Check[];
}

/** The suite splits --command on spaces and runs it through a shell, so each path is shell-quoted. */
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * How long the suite lets the client run before it kills it: a guard against a hang, not a measure (a client
 * that started in 19 s on a loaded CI machine was killed at 20 s). Below vitest's testTimeout, so the suite's
 * own report is what a failure shows.
 */
const CLIENT_TIMEOUT_MS = 120_000;

/** Runs `scenario` of the suite at `cli` (with `extraArgs`, such as a --spec-version) and reads its checks.json. */
export function runScenario(cli: string, scenario: string, extraArgs: readonly string[] = []): Promise<SuiteRun> {
  const outputDir = tempDir('chatos-conformance-');
  const args = [
    cli,
    'client',
    '--command',
    `${shellQuote(process.execPath)} ${shellQuote(adapter)}`,
    '--scenario',
    scenario,
    ...extraArgs,
    '--timeout',
    String(CLIENT_TIMEOUT_MS),
    '--output-dir',
    outputDir,
  ];
  return new Promise((resolve, reject) => {
    // Node's compile cache (as bin/chatos.js turns on, in the same folder) for the suite's CLI and the adapter it starts:
    // the two processes of each scenario compile the same modules again every time, ~10% of a scenario's CPU.
    const env = { ...process.env, NO_COLOR: '1', NODE_COMPILE_CACHE: path.join(os.tmpdir(), 'node-compile-cache') };
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      // The suite writes <outputDir>/<scenario>-<timestamp>/checks.json for the run.
      // An auth/x scenario's run is in <outputDir>/auth/x-<timestamp>/.
      const scenarioDir = path.join(outputDir, path.dirname(scenario));
      const runDir = fs.existsSync(scenarioDir) ? fs.readdirSync(scenarioDir).find((name) => name.startsWith(`${path.basename(scenario)}-`)) : undefined;
      const checksFile = runDir ? path.join(scenarioDir, runDir, 'checks.json') : undefined;
      const checks = checksFile && fs.existsSync(checksFile) ? (JSON.parse(fs.readFileSync(checksFile, 'utf8')) as Check[]) : [];
      resolve({ code, stderr, checks });
    });
  });
}
