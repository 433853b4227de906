// The WSL operations of the WSL app, shared by its MCP server and its
// backend: `wsl.exe` run with an argument list (no shell), bounded in time
// and output. `wsl.exe` prints its own messages (the distribution list) in
// UTF-16LE; what a command inside a distribution prints is that program's
// bytes, read as UTF-8.
import { execFile } from 'node:child_process';

export const LIMITS = { outputBytes: 256 * 1024, timeoutMs: 60_000, argBytes: 32 * 1024, args: 256 };

export class WslProblem extends Error {
  constructor(message) {
    super(message);
    this.name = 'WslProblem';
  }
}

/**
 * Whether this is Windows, where wsl.exe exists. CHATOS_WSL_PLATFORM=win32
 * forces the Windows path elsewhere: the tests run the plumbing against a
 * stand-in wsl.exe on PATH that way.
 */
export const onWindows = () => process.platform === 'win32' || process.env.CHATOS_WSL_PLATFORM === 'win32';

export const ONLY_ON_WINDOWS = 'WSL is available only on Windows: this computer runs ' + process.platform + ', so the WSL app has nothing to run here.';

/** wsl.exe's own output: UTF-16LE (with or without a BOM) when it has NUL bytes in odd places, else UTF-8. */
export function decodeWslOutput(bytes) {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  let zeros = 0;
  for (let i = 1; i < Math.min(bytes.length, 200); i += 2) if (bytes[i] === 0) zeros++;
  return zeros > 0 && zeros >= Math.min(bytes.length, 200) / 4 ? bytes.toString('utf16le') : bytes.toString('utf8');
}

/**
 * Runs wsl.exe: output past the cap is cut (execFile ends the process and
 * keeps what came), a run past the time limit is killed.
 */
function runWsl(args) {
  return new Promise((resolve, reject) => {
    const options = { encoding: 'buffer', shell: false, windowsHide: true, maxBuffer: LIMITS.outputBytes, timeout: LIMITS.timeoutMs, killSignal: 'SIGKILL', env: { ...process.env, WSL_UTF8: '0' } };
    execFile('wsl.exe', args, options, (error, stdout, stderr) => {
      const truncated = error?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
      if (error?.code === 'ENOENT') return reject(new WslProblem('wsl.exe was not found on PATH: install WSL (wsl --install) first'));
      if (error?.killed && !truncated) return reject(new WslProblem(`wsl.exe ${args[0]} took longer than ${LIMITS.timeoutMs / 1000} s and was stopped`));
      if (error && typeof error.code !== 'number' && !truncated) return reject(error);
      resolve({ code: truncated ? 0 : (error?.code ?? 0), stdout, stderr: stderr.toString('utf8'), truncated });
    });
  });
}

async function wsl(args, { decode = true } = {}) {
  if (!onWindows()) throw new WslProblem(ONLY_ON_WINDOWS);
  const result = await runWsl(args);
  return { ...result, stdout: decode ? decodeWslOutput(result.stdout) : result.stdout.toString('utf8') };
}

/** A distribution name as wsl.exe knows them: letters, digits, '.', '_', '-'; never an option. */
function checkName(name) {
  if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new WslProblem(`"distribution" (${JSON.stringify(name)}) must be a distribution name as listed (letters, digits, ".", "_" or "-", starting with a letter or digit)`);
  }
  return name;
}

/** `wsl.exe -l -v` as rows: name, state (Running, Stopped, Installing…), WSL version, and which is the default. */
export async function listDistributions() {
  const result = await wsl(['--list', '--verbose']);
  if (result.code !== 0) throw new WslProblem(`wsl.exe --list failed: ${result.stdout.trim() || result.stderr.trim() || `exit code ${result.code}`}`);
  const lines = result.stdout
    .replace(/\0/g, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  const rows = lines.slice(1).map((line) => {
    const isDefault = line.trimStart().startsWith('*');
    const [name, state, version] = line
      .replace(/^\s*\*?\s*/, '')
      .trim()
      .split(/\s+/);
    return { name, state, version: Number(version), default: isDefault };
  });
  return { distributions: rows.filter((r) => r.name) };
}

async function known(name) {
  checkName(name);
  const { distributions } = await listDistributions();
  const found = distributions.find((d) => d.name === name);
  if (!found) throw new WslProblem(`there is no distribution "${name}"; installed: ${distributions.map((d) => d.name).join(', ') || 'none'}`);
  return found;
}

/** Runs a program in a distribution with its arguments as given (wsl.exe --exec: no shell in between). */
export async function runCommand(name, command, { user } = {}) {
  await known(name);
  if (!Array.isArray(command) || command.length === 0 || typeof command[0] !== 'string' || command[0] === '')
    throw new WslProblem('"command" must list the program and its arguments, e.g. ["ls", "-l", "/home"]');
  if (command.length > LIMITS.args) throw new WslProblem(`"command" has ${command.length} parts; at most ${LIMITS.args}`);
  if (Buffer.byteLength(command.join(' ')) > LIMITS.argBytes) throw new WslProblem(`"command" is longer than ${LIMITS.argBytes / 1024} KB`);
  if (command.some((part) => typeof part !== 'string' || part.includes('\0'))) throw new WslProblem('every part of "command" must be a string without NUL characters');
  const args = ['--distribution', name];
  if (user !== undefined) {
    if (typeof user !== 'string' || !/^[a-z_][a-z0-9_-]{0,31}$/.test(user)) throw new WslProblem(`"user" (${JSON.stringify(user)}) must be a Linux user name`);
    args.push('--user', user);
  }
  const result = await wsl([...args, '--exec', ...command], { decode: false });
  return { exitCode: result.code, output: result.stdout, errors: result.stderr, truncated: result.truncated };
}

/** Starts a distribution (runs `true` in it, which boots it) and answers its state after. */
export async function start(name) {
  await known(name);
  const result = await wsl(['--distribution', name, '--exec', 'true'], { decode: false });
  if (result.code !== 0) throw new WslProblem(`${name} did not start: ${result.stderr.trim() || `exit code ${result.code}`}`);
  return known(name);
}

/** Stops a distribution (wsl.exe --terminate): what runs in it is ended. */
export async function stop(name) {
  await known(name);
  const result = await wsl(['--terminate', name]);
  if (result.code !== 0) throw new WslProblem(`${name} did not stop: ${result.stdout.trim() || `exit code ${result.code}`}`);
  return known(name);
}
