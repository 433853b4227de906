import type { z } from 'zod';

/**
 * A logical table: rows of one kind in the physical `records` table,
 * told apart by `records.table_name`. The schema checks every payload on
 * write and on read.
 */
export interface LogicalTable<T> {
  readonly name: string;
  readonly schema: z.ZodType<T>;
}

export function defineTable<T>(name: string, schema: z.ZodType<T>): LogicalTable<T> {
  return { name, schema };
}

export interface StoredRecord<T> {
  id: string;
  payload: T;
  createdAt: string;
  updatedAt: string;
}
