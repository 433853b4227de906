import { z } from 'zod';
import { UiAppMetaSchema } from '../../shared/appContribution.js';

/**
 * The IPC messages between the host and a plugin backend's process
 * (`backendRunner.ts`). Both sides parse what they receive: the child runs
 * plugin code, which can call `process.send` itself, so the host trusts
 * nothing that arrives on the channel.
 */

/** What `createUiAppsBackend(ctx)` and every method receive: the app's `uiApp` meta without the app id (a backend serves the whole plugin). */
export const BackendContextSchema = UiAppMetaSchema.omit({ appId: true });
export type BackendContext = z.infer<typeof BackendContextSchema>;

export const RunnerRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init'), entry: z.string(), ctx: BackendContextSchema }),
  z.object({ type: z.literal('invoke'), id: z.number().int(), method: z.string(), params: z.unknown().optional() }),
  z.object({ type: z.literal('dispose') }),
]);
export type RunnerRequest = z.infer<typeof RunnerRequestSchema>;

export const RunnerReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('init-failed'), message: z.string() }),
  z.discriminatedUnion('ok', [
    z.object({ type: z.literal('result'), id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
    z.object({ type: z.literal('result'), id: z.number().int(), ok: z.literal(false), message: z.string() }),
  ]),
  /** Something that went wrong outside any call (an unhandled rejection, a failed dispose), for the host's log. */
  z.object({ type: z.literal('log'), text: z.string() }),
]);
export type RunnerReply = z.infer<typeof RunnerReplySchema>;

/** What `PluginBackends.invoke` answers; it never throws. */
export type InvokeOutcome = { ok: true; result: unknown } | { ok: false; message: string };
