// Runs a program with an argument list, never through a shell, with a time
// limit and a cap on what it may print: what is past the cap is dropped and
// the process is ended, so a huge diff or log costs no more than the cap.
import { spawn } from 'node:child_process';

/** What one run gives: exit code, the output (cut at the cap) and whether it was cut. */
export function runProgram(program, args, { cwd, env, input, maxBytes = 1024 * 1024, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, env, shell: false, windowsHide: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    let outBytes = 0;
    let errBytes = 0;
    let truncated = false;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (chunk) => {
      if (truncated) return;
      const room = maxBytes - outBytes;
      if (chunk.length > room) {
        out.push(chunk.subarray(0, room));
        outBytes = maxBytes;
        truncated = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
      outBytes += chunk.length;
    });
    // stderr only explains a failure: 64 KB of it is plenty.
    child.stderr.on('data', (chunk) => {
      if (errBytes < 65_536) err.push(chunk.subarray(0, 65_536 - errBytes));
      errBytes += chunk.length;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new Error(`${program} was not found on PATH; install it or add its folder to PATH`) : error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return reject(new Error(`${program} ${args[0] ?? ''} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`));
      resolve({ code: truncated ? 0 : code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), truncated });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? undefined);
  });
}
