import type { Command } from 'commander';
import { createHost, type Host, type HostOptions } from '../core/host.js';
import { StoreError } from '../core/facades/errors.js';
import { notSaved } from './storeFailure.js';

export interface GlobalOptions {
  home?: string;
  plugins: string[];
  json: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  const opts = command.optsWithGlobals() as Partial<GlobalOptions>;
  return { home: opts.home, plugins: opts.plugins ?? [], json: opts.json ?? false };
}

/** `readOnly`: the command only looks, so nothing it computes (a registry sync for its view) is written to the data home. */
export function hostFor(options: GlobalOptions, access: { readOnly?: boolean } = {}, extra: Pick<HostOptions, 'chat'> = {}): Host {
  return createHost({ home: options.home, extraPluginRoots: options.plugins, readOnly: access.readOnly ?? false, ...extra });
}

/**
 * A host with its admin DB open and the registry bootstrapped; disposed (DB
 * flushed) after `use`. For commands that change something: they call
 * `commit(host)` before they say so.
 */
export function withStartedHost<T>(options: GlobalOptions, use: (host: Host) => Promise<T> | T, extra: Pick<HostOptions, 'chat'> = {}): Promise<T> {
  return runWith(hostFor(options, {}, extra), use);
}

/**
 * For commands that only look (`registry`, `apps`, `tools`, `agents list`…):
 * the registry is synced in memory for the view and nothing is written, so
 * a look with other plugin roots or another environment changes nothing
 * that another process registered.
 */
export function withReadOnlyHost<T>(options: GlobalOptions, use: (host: Host) => Promise<T> | T): Promise<T> {
  return runWith(hostFor(options, { readOnly: true }), use);
}

async function runWith<T>(host: Host, use: (host: Host) => Promise<T> | T): Promise<T> {
  await host.start();
  let result: T;
  try {
    result = await use(host);
  } catch (error) {
    // The command's own failure is the one to report; a save failing as well would only hide it.
    await host.dispose().catch(() => undefined);
    throw error;
  }
  try {
    await host.dispose();
  } catch (error) {
    throw error instanceof StoreError ? notSaved(error) : error;
  }
  return result;
}

/**
 * Writes the command's changes to the data home now. A change that did not
 * reach the disk is a failure (exit 1) before anything says it was made:
 * the process is about to exit, so "kept in memory" would mean lost.
 */
export async function commit(host: Host): Promise<void> {
  try {
    await host.save();
  } catch (error) {
    throw error instanceof StoreError ? notSaved(error) : error;
  }
}
