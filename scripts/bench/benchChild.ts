import { spawn } from 'node:child_process';

/**
 * Runs a bench's own Node process (`node ...args`, `env` added to this
 * process's environment) to its end: resolves with
 * what it printed, or rejects with the end of its stderr when it exits
 * other than 0. `what` names it in that error.
 */
export function runBenchChild(args: readonly string[], what: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${what} failed (exit ${code}): ${stderr.slice(-2000)}`));
      else resolve(stdout);
    });
  });
}
