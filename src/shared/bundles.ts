import { z } from 'zod';

/** Who signed an MCP Bundle. `unknown-signer`: the signature is sound, but no CA the host trusts vouches for the certificate. */
export const BundleSignatureSchema = z.union([
  z.object({ status: z.literal('unsigned') }),
  z.object({
    status: z.enum(['signed', 'self-signed', 'unknown-signer']),
    publisher: z.string(),
    issuer: z.string(),
    validFrom: z.string(),
    validTo: z.string(),
    fingerprint: z.string(),
  }),
]);
export type BundleSignature = z.infer<typeof BundleSignatureSchema>;

/** One `user_config` field of a bundle, as the install asks for it. */
export const BundleConfigFieldSchema = z.object({
  key: z.string(),
  type: z.enum(['string', 'number', 'boolean', 'directory', 'file']),
  title: z.string(),
  description: z.string(),
  required: z.boolean(),
  /** Kept in the key store, never in a file or a command line. */
  sensitive: z.boolean(),
  multiple: z.boolean(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  /** The value an earlier install of the same bundle kept (never for a sensitive field: `kept` says it is stored). */
  previous: z.union([z.string(), z.array(z.string())]).optional(),
  kept: z.boolean().optional(),
});
export type BundleConfigField = z.infer<typeof BundleConfigFieldSchema>;

/** What installing a bundle shows before anything is placed. */
export const BundlePreviewSchema = z.object({
  pluginId: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.string(),
  author: z.object({ name: z.string(), email: z.string().optional(), url: z.string().optional() }),
  signature: BundleSignatureSchema,
  serverType: z.string(),
  /** The exact command line, `${user_config.…}` left where the values go. */
  command: z.array(z.string()),
  env: z.array(z.object({ name: z.string(), value: z.string() })),
  tools: z.array(z.object({ name: z.string(), description: z.string().optional() })),
  prompts: z.array(z.object({ name: z.string(), description: z.string().optional() })),
  userConfig: z.array(BundleConfigFieldSchema),
  /** An installed copy of the same bundle is updated in place. */
  installed: z.boolean(),
  /**
   * The installed copy had another signer (`before`: its certificate's fingerprint, null when unsigned), or this one is
   * unsigned where it was signed: the settings in `storedSecrets` are not carried over unless the user says so.
   */
  signerChanged: z.object({ before: z.string().nullable(), storedSecrets: z.array(z.string()) }).optional(),
  /**
   * Both the installed copy and this one are unsigned: nothing vouches that the update comes from whoever made the
   * installed copy (any bundle of that name installs as the same plugin). With `sameBundle` (the same name and author as
   * the installed copy) the settings in `storedSecrets` are kept only when the user says so; otherwise they are dropped
   * and asked again.
   */
  unsignedUpdate: z.object({ sameBundle: z.boolean(), storedSecrets: z.array(z.string()) }).optional(),
});
export type BundlePreview = z.infer<typeof BundlePreviewSchema>;

/** The installed copy's stored secrets this update gets only when the user says so (`keepSecrets`); every face offers the same. */
export function secretsKeptIfAsked(preview: Pick<BundlePreview, 'signerChanged' | 'unsignedUpdate'>): string[] {
  return [...(preview.signerChanged?.storedSecrets ?? []), ...(preview.unsignedUpdate?.sameBundle ? preview.unsignedUpdate.storedSecrets : [])];
}

/** The values the user gave: a string (numbers and booleans as text), or a list for a `multiple` field. */
export const BundleConfigValuesSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
export type BundleConfigValues = z.infer<typeof BundleConfigValuesSchema>;
