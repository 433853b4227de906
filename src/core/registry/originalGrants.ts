import { z } from 'zod';
import { GrantSchema, type Grant } from '../../shared/registry.js';

/**
 * Grant rows the original ChatOS wrote (docs/rules/registry.md#storage): `mcpServerGrants.server_id`,
 * `promptGrants.prompt_id`, the app in `app_id`, under an id of their own.
 * The value is the same registry id ChatOS keeps in `targetId`
 * (docs/rules/registry.md#storage), so such a row is a grant, not a broken row.
 */
export type OriginalGrantField = 'server_id' | 'prompt_id';

const originalGrantSchema = (field: OriginalGrantField) =>
  z.object({
    app_id: z.string().min(1),
    [field]: z.string().min(1),
    created_at: z.string().optional(),
  });

type OriginalGrantRow = { app_id: string; created_at?: string } & Record<OriginalGrantField, string>;

const isOriginalShape = (value: unknown, field: OriginalGrantField): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, field) && !Object.hasOwn(value, 'targetId');

/**
 * A grant table's schema that reads both shapes: ChatOS's own, and the
 * original's (returned in ChatOS's shape, so every reader sees one kind of
 * grant). A malformed original row fails on the original's field names, so
 * Problems names the field the user's file actually has. Writes are always
 * ChatOS's shape: an original row is only ever read.
 */
export function storedGrantSchema(field: OriginalGrantField): z.ZodType<Grant> {
  const original = originalGrantSchema(field);
  return z.unknown().transform((value, ctx): Grant => {
    if (!isOriginalShape(value, field)) return passOrReport(GrantSchema.safeParse(value), ctx);
    // A failed parse has added its issues; the transform's result is then discarded.
    const row = passOrReport(original.safeParse(value), ctx) as OriginalGrantRow;
    return { appId: row.app_id, targetId: row[field], grantedAt: row.created_at ?? '' };
  });
}

/** A parse's data, or its issues (with their paths) added to the outer schema's. */
function passOrReport<T>(parsed: z.ZodSafeParseResult<T>, ctx: z.RefinementCtx): T {
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  return z.NEVER;
}
