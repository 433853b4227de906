import type { z } from 'zod';
import type { Host } from '../../core/host.js';
import type { HostApiMethod, HostApiMethods, HostApiResult, HostEventMessage } from '../../shared/hostApi.js';
import type { FaceUrls } from '../types.js';

/** What every handler module gets: the started host, the face's urls, and a way to tell the UI something changed. */
export interface HandlerContext {
  host: Host;
  urls: FaceUrls;
  emit(event: HostEventMessage): void;
  face: 'electron' | 'serve';
  version: string;
  locale: string;
  /** The system browser (desktop app), for a remote server's sign-in page. */
  openExternal?: (url: string) => void;
  /** The system's folder picker (desktop app): the folder the person chose, or undefined when they cancelled. */
  pickFolder?: () => Promise<string | undefined>;
}

/** What a handler may know of one request besides its params. */
export interface HandlerRequest {
  /** Aborts once the sender can no longer take the answer (RequestOrigin.signal). */
  signal?: AbortSignal;
}

/** One handler per method; params arrive parsed by the contract. */
export type Handlers<M extends HostApiMethod = HostApiMethod> = {
  [K in M]: (params: z.output<(typeof HostApiMethods)[K]['params']>, request: HandlerRequest) => Promise<HostApiResult<K>> | HostApiResult<K>;
};
