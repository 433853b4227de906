import {
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

const CALLS = [JSONRPCRequestSchema, JSONRPCNotificationSchema] as const;
const ANSWERS = [JSONRPCResultResponseSchema, JSONRPCErrorResponseSchema] as const;

/**
 * The JSON-RPC message `json` is, validated and stripped exactly as the
 * SDK's `JSONRPCMessageSchema` union would, or undefined. The union tries a
 * request first and a result last, and most messages a client reads are
 * results: a request or notification has a `method`, an answer has none, so
 * that alone says which two shapes to try. Checking results first cost a
 * third of the union on every reply.
 */
export function asJsonRpcMessage(json: unknown): JSONRPCMessage | undefined {
  const shapes = typeof json === 'object' && json !== null && 'method' in json ? CALLS : ANSWERS;
  for (const shape of shapes) {
    const parsed = shape.safeParse(json);
    if (parsed.success) return parsed.data as JSONRPCMessage;
  }
  return undefined;
}
