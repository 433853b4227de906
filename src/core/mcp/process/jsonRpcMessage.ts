import { JSONRPCErrorResponseSchema, JSONRPCNotificationSchema, JSONRPCRequestSchema, JSONRPCResultResponseSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { hasOnlyKeys, isPlainObject } from '../../plainObject.js';

const CALLS = [JSONRPCRequestSchema, JSONRPCNotificationSchema] as const;
const ANSWERS = [JSONRPCResultResponseSchema, JSONRPCErrorResponseSchema] as const;
const isResultMessageKey = (key: string) => key === 'jsonrpc' || key === 'id' || key === 'result';

/**
 * The message itself when it is a plain result, as nearly every reply a
 * client reads is: exactly `jsonrpc` "2.0", an id (a string or a safe
 * integer, as RequestIdSchema) and a `result` object without `_meta` or an
 * own `__proto__` (the two keys the SDK's schema treats specially). For that
 * shape the schema accepts it and returns an equal copy; anything else is
 * undefined and goes to the schemas.
 */
function plainResult(json: Record<string, unknown>): JSONRPCMessage | undefined {
  const { id, result } = json;
  if (json.jsonrpc !== '2.0' || !(typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
  if (!isPlainObject(result) || Object.hasOwn(result, '_meta') || Object.hasOwn(result, '__proto__')) return undefined;
  return hasOnlyKeys(json, isResultMessageKey) ? (json as JSONRPCMessage) : undefined;
}

/**
 * The JSON-RPC message `json` is, validated and stripped exactly as the
 * SDK's `JSONRPCMessageSchema` union would, or undefined. The union tries a
 * request first and a result last, and most messages a client reads are
 * results: a request or notification has a `method`, an answer has none, so
 * that alone says which two shapes to try, and a plain result is checked by
 * hand before either. Checking results first cost a third of the union on
 * every reply; the schema's copy of a result, most of the rest.
 */
export function asJsonRpcMessage(json: unknown): JSONRPCMessage | undefined {
  const isCall = typeof json === 'object' && json !== null && 'method' in json;
  if (!isCall && isPlainObject(json)) {
    const plain = plainResult(json);
    if (plain) return plain;
  }
  for (const shape of isCall ? CALLS : ANSWERS) {
    const parsed = shape.safeParse(json);
    if (parsed.success) return parsed.data as JSONRPCMessage;
  }
  return undefined;
}
