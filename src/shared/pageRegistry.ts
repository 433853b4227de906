import { z } from 'zod';

/**
 * What a UI app's page gets from `host.registry.list()`: the registry as its
 * app may see it (its own registrations plus what was granted to it, runnable
 * ones only), and the UI apps behind them. Names and descriptions, no paths
 * or command lines: a page needs to know what exists, not how it runs.
 */
export const PageRegistryViewSchema = z.object({
  /** The registry app the page acts as (its plugin's `providerAppId`). */
  appId: z.string(),
  apps: z.array(z.object({ pluginId: z.string(), appId: z.string(), name: z.string(), description: z.string().optional() })),
  servers: z.array(z.object({ id: z.string(), name: z.string(), providerAppId: z.string(), description: z.string().optional() })),
  prompts: z.array(z.object({ id: z.string(), name: z.string(), providerAppId: z.string(), title: z.string().optional() })),
});
export type PageRegistryView = z.infer<typeof PageRegistryViewSchema>;
