import { z } from 'zod';

/**
 * A server's question to the user (MCP elicitation, spec 2025-11-25): a form
 * built from a flat schema of primitive fields, or a url the user may open.
 * The host checks what the server sent (docs/using/elicitation.md) before
 * any face shows it; a face renders this and answers with
 * `questions.respond`, which the host checks against the schema again.
 */

/** One field of a form, as the host checked it (the spec's restricted schema: no nesting). */
export const ElicitationFieldSchema = z.object({
  name: z.string(),
  /** `multi`: an array of enum values (a multi-select). */
  type: z.enum(['string', 'number', 'integer', 'boolean', 'enum', 'multi']),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean(),
  /** The value the form starts with: the schema's `default` (SEP-1034), if valid for the field. */
  default: z.unknown().optional(),
  /** For enum and multi fields: the values, each with the label to show (`oneOf`'s `title`, or the value). */
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  /** string: `email`, `uri`, `date`, `date-time`. */
  format: z.string().optional(),
  minLength: z.number().optional(),
  maxLength: z.number().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  minItems: z.number().optional(),
  maxItems: z.number().optional(),
});
export type ElicitationField = z.infer<typeof ElicitationFieldSchema>;

const Common = {
  id: z.string(),
  /** The server asking: its id (`chatos::name`, `app:…`) and the name a person knows it by. */
  serverId: z.string(),
  serverName: z.string(),
  /** The server's own message to the user (plain text, shown as the server's words). */
  message: z.string(),
  /** The conversation whose tool call the question came during, when the host can tell (one call of this server in flight). */
  conversationId: z.string().optional(),
  agentId: z.string().optional(),
  createdAt: z.number(),
  /** After this the host answers `cancel` for the user. */
  expiresAt: z.number(),
};

export const ElicitationRequestSchema = z.discriminatedUnion('mode', [
  z.object({ ...Common, mode: z.literal('form'), fields: z.array(ElicitationFieldSchema) }),
  z.object({
    ...Common,
    mode: z.literal('url'),
    url: z.string(),
    /** The host the url goes to, as the browser will see it (punycode for a non-ASCII name): shown before anything opens. */
    domain: z.string(),
    /** The domain has a punycode label or mixes scripts: the face warns that it may imitate another. */
    lookAlike: z.boolean(),
  }),
]);
export type ElicitationRequest = z.infer<typeof ElicitationRequestSchema>;

/** The user's answer, as in the spec: accept (with the form's values for a form), decline, or cancel (dismissed). */
export const ElicitationActionSchema = z.enum(['accept', 'decline', 'cancel']);
export type ElicitationAction = z.infer<typeof ElicitationActionSchema>;

/**
 * How a question ended: the user's action, or `expired` (nobody answered: sent as cancel), `withdrawn` (the call that asked
 * ended), `completed` (a url question the server said was done, notifications/elicitation/complete: sent as accept).
 */
export const ElicitationOutcomeSchema = z.enum(['accept', 'decline', 'cancel', 'expired', 'withdrawn', 'completed']);
export type ElicitationOutcome = z.infer<typeof ElicitationOutcomeSchema>;

/** A value of a form field as the spec allows it. */
export const ElicitationValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export const ElicitationContentSchema = z.record(z.string(), ElicitationValueSchema);
export type ElicitationContent = z.infer<typeof ElicitationContentSchema>;

/**
 * The form as first shown: every field that has a default, at its default
 * (SEP-1034). Faces prefill from it, and accepting a form untouched sends
 * exactly this; a field without a default starts empty and is left out.
 */
export function formDefaults(fields: readonly ElicitationField[]): ElicitationContent {
  // Own properties whatever the name (fromEntries never calls a setter such as `__proto__`'s).
  return Object.fromEntries(fields.filter((field) => field.default !== undefined).map((field) => [field.name, field.default as ElicitationContent[string]]));
}
