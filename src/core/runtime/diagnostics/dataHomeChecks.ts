import { said } from './checkWords.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DiagnosticCheck } from '../../../shared/diagnostics.js';

/** The nearest folder of `dir` that exists: where a missing data home would be made. */
function nearestExisting(dir: string): string {
  let at = path.resolve(dir);
  while (!fs.existsSync(at)) {
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  return at;
}

/** Writes and removes a probe file: the only answer to "writable" that counts (a read-only mount has the mode bits too). */
function canWrite(dir: string): string | undefined {
  const probe = path.join(dir, `.chatos-doctor-${process.pid}-${Date.now()}`);
  try {
    fs.writeFileSync(probe, '', { flag: 'wx' });
    fs.rmSync(probe);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}

/** Undefined when nothing is there, a file in its path included (ENOTDIR). */
function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

/** The data home: there and writable, or makeable where it would be. */
export function dataHomeCheck(home: string): DiagnosticCheck {
  const facts = { home };
  const stat = statOf(home);
  if (stat && !stat.isDirectory())
    return {
      id: 'data-home',
      status: 'fail',
      summary: `the data home ${home} is not a folder`,
      fix: `move that file away, or choose another home with --home or CHATOS_HOME`,
      facts,
      ...said('homeNotFolder', { home }, 'moveAway'),
    };
  const dir = stat ? home : nearestExisting(home);
  const failed = canWrite(dir);
  if (failed) {
    return {
      id: 'data-home',
      status: 'fail',
      summary: stat ? `the data home ${home} is not writable (${failed})` : `the data home ${home} does not exist and cannot be made in ${dir} (${failed})`,
      fix: `give your user write access to ${dir}, or choose another home with --home or CHATOS_HOME`,
      facts,
      ...said(stat ? 'homeNotWritable' : 'homeCannotMake', { home, dir, error: failed }, 'writeAccess'),
    };
  }
  return {
    id: 'data-home',
    status: 'ok',
    summary: stat ? `the data home ${home} is writable` : `the data home ${home} does not exist yet; it is made on first use`,
    facts,
    ...said(stat ? 'homeWritable' : 'homeNotYet', { home }),
  };
}

export interface DiskLimits {
  /** Below this a save or an install may fail. */
  failBelow: number;
  warnBelow: number;
}
export const DISK_LIMITS: DiskLimits = { failBelow: 100 * 1024 * 1024, warnBelow: 1024 * 1024 * 1024 };

const mib = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MiB`;

/** Free space where the data home is (or would be). */
export function diskCheck(home: string, limits: DiskLimits = DISK_LIMITS): DiagnosticCheck {
  const dir = nearestExisting(home);
  let free: number;
  try {
    const stats = fs.statfsSync(dir);
    free = stats.bavail * stats.bsize;
  } catch (error) {
    return {
      id: 'disk',
      status: 'warn',
      summary: `free space in ${dir} could not be read (${(error as Error).message})`,
      fix: "check the disk with your system's tools",
      facts: { dir },
      ...said('diskUnread', { dir, error: (error as Error).message }, 'checkDisk'),
    };
  }
  const facts = { dir, freeBytes: String(free) };
  if (free < limits.failBelow)
    return {
      id: 'disk',
      status: 'fail',
      summary: `only ${mib(free)} free in ${dir}: saves and installs may fail`,
      fix: `free at least ${mib(limits.warnBelow)} there, or choose a home on another disk with --home or CHATOS_HOME`,
      facts,
      ...said('diskLow', { free: mib(free), dir, needed: mib(limits.warnBelow) }, 'freeAtLeast'),
    };
  if (free < limits.warnBelow)
    return {
      id: 'disk',
      status: 'warn',
      summary: `${mib(free)} free in ${dir}`,
      fix: `free some space there (${mib(limits.warnBelow)} or more is comfortable)`,
      facts,
      ...said('diskSome', { free: mib(free), dir, needed: mib(limits.warnBelow) }, 'freeSome'),
    };
  return { id: 'disk', status: 'ok', summary: `${mib(free)} free in ${dir}`, facts, ...said('diskOk', { free: mib(free), dir }) };
}
