import type { Command } from 'commander';
import { createHost, type Host } from '../core/host.js';

export interface GlobalOptions {
  home?: string;
  plugins: string[];
  json: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  const opts = command.optsWithGlobals() as Partial<GlobalOptions>;
  return { home: opts.home, plugins: opts.plugins ?? [], json: opts.json ?? false };
}

export function hostFor(options: GlobalOptions): Host {
  return createHost({ home: options.home, extraPluginRoots: options.plugins });
}

/** A host with its admin DB open and the registry bootstrapped; disposed (DB flushed) after `use`. */
export async function withStartedHost<T>(options: GlobalOptions, use: (host: Host) => Promise<T> | T): Promise<T> {
  const host = hostFor(options);
  await host.start();
  try {
    return await use(host);
  } finally {
    await host.dispose();
  }
}
