import { z } from 'zod';
import { isPlainObject } from '../../plainObject.js';

/**
 * The MCP Registry's shapes as its OpenAPI document defines them
 * (modelcontextprotocol/registry, docs/reference/api/openapi.yaml:
 * `ServerList`, `ServerResponse`, `ServerDetail`, `Package`, `Argument`,
 * `KeyValueInput`, `RemoteTransport`). Everything here is data from outside:
 * each string and list is bounded, unknown fields are dropped, and the maps
 * it keys by name (`variables`) become Maps so no name reaches a prototype.
 * Fields ChatOS does not use (icons, publisher `_meta`) are not read.
 */

const Text = (max: number) => z.string().max(max);

const InputSchema = z.object({
  description: Text(2000).optional(),
  isRequired: z.boolean().optional(),
  format: Text(32).optional(),
  value: Text(16_384).optional(),
  isSecret: z.boolean().optional(),
  default: Text(16_384).optional(),
  placeholder: Text(2000).optional(),
  choices: z.array(Text(1000)).max(200).optional(),
});
export type RegistryInput = z.infer<typeof InputSchema>;

/** `{curly}` names in values and URLs: an identifier, as the OpenAPI's url pattern writes it. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** An `additionalProperties` map of inputs, as a Map (a name like `__proto__` is only a name). */
const VariablesSchema = z
  .unknown()
  .optional()
  .transform((raw, ctx) => {
    const variables = new Map<string, RegistryInput>();
    if (raw === undefined) return variables;
    if (!isPlainObject(raw)) {
      ctx.addIssue({ code: 'custom', message: 'variables must be an object' });
      return z.NEVER;
    }
    const entries = Object.entries(raw);
    if (entries.length > 64) ctx.addIssue({ code: 'custom', message: 'more than 64 variables' });
    for (const [name, value] of entries) {
      const input = InputSchema.safeParse(value);
      if (!VARIABLE_NAME.test(name)) ctx.addIssue({ code: 'custom', message: `variable name ${JSON.stringify(name.slice(0, 80))} is not an identifier` });
      else if (!input.success) ctx.addIssue({ code: 'custom', message: `variable ${name}: ${input.error.issues[0]?.message ?? 'invalid'}` });
      else variables.set(name, input.data);
    }
    return variables;
  });

const WithVariables = InputSchema.extend({ variables: VariablesSchema });
export type RegistryInputWithVariables = z.infer<typeof WithVariables>;

const KeyValueInputSchema = WithVariables.extend({ name: Text(256).min(1) });
export type RegistryKeyValue = z.infer<typeof KeyValueInputSchema>;

const ArgumentSchema = z.discriminatedUnion('type', [
  WithVariables.extend({ type: z.literal('positional'), valueHint: Text(256).optional(), isRepeated: z.boolean().optional() }),
  WithVariables.extend({ type: z.literal('named'), name: Text(256).min(1), isRepeated: z.boolean().optional() }),
]);
export type RegistryArgument = z.infer<typeof ArgumentSchema>;

/** `LocalTransport` / `RemoteTransport`: the type is kept as written, so an unknown one is shown as such rather than refusing the entry. */
const TransportSchema = z.object({
  type: Text(64),
  url: Text(4096).optional(),
  headers: z.array(KeyValueInputSchema).max(64).optional(),
  variables: VariablesSchema,
});
export type RegistryTransport = z.infer<typeof TransportSchema>;

const PackageSchema = z.object({
  registryType: Text(64),
  registryBaseUrl: Text(2048).optional(),
  identifier: Text(1024).min(1),
  version: Text(256).optional(),
  fileSha256: Text(64).optional(),
  runtimeHint: Text(64).optional(),
  transport: TransportSchema,
  runtimeArguments: z.array(ArgumentSchema).max(128).optional(),
  packageArguments: z.array(ArgumentSchema).max(128).optional(),
  environmentVariables: z.array(KeyValueInputSchema).max(128).optional(),
});
export type RegistryPackage = z.infer<typeof PackageSchema>;

export const ServerDetailSchema = z.object({
  name: Text(200).min(1),
  description: Text(2000).default(''),
  title: Text(200).optional(),
  version: Text(255).default(''),
  websiteUrl: Text(2048).optional(),
  repository: z.object({ url: Text(2048).optional(), source: Text(64).optional(), subfolder: Text(1024).optional() }).optional(),
  packages: z.array(PackageSchema).max(32).default([]),
  remotes: z.array(TransportSchema).max(32).default([]),
});
export type ServerDetail = z.infer<typeof ServerDetailSchema>;

/** `ServerResponse`: the entry and the registry's own metadata about it. */
export const ServerResponseSchema = z.object({
  server: ServerDetailSchema,
  _meta: z
    .object({
      'io.modelcontextprotocol.registry/official': z.object({ status: Text(32).optional(), isLatest: z.boolean().optional() }).optional(),
    })
    .optional(),
});
export type ServerResponse = z.infer<typeof ServerResponseSchema>;

/**
 * `ServerList`: entries are checked one by one (a bad entry is refused with
 * its reason, the others still listed). The OpenAPI names the cursor
 * `metadata.nextCursor`; the registry's prose example writes `next_cursor`,
 * so both are read.
 */
export const ServerListSchema = z.object({
  servers: z.array(z.unknown()).max(500),
  metadata: z
    .object({
      nextCursor: Text(4096).nullable().optional(),
      next_cursor: Text(4096).nullable().optional(),
      count: z.number().optional(),
    })
    .optional(),
});
