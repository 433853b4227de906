/**
 * What the core asks of the world outside it (time, timers, where to say
 * things), as interfaces every service takes in its constructor. The
 * composition root (`host.ts`) passes the system's; tests pass their own.
 */

export interface Clock {
  now(): number;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * Time and timers behind one interface, so services with deadlines (the
 * 60 s confirmation expiry) are tested with a clock the test moves.
 */
export interface Scheduler {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = { now: () => Date.now() };

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export const systemScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
