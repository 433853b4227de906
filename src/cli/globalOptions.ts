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
