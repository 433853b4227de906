import type { SamplingEdits, SamplingMessage, SamplingPart } from '../../shared/sampling.js';
import { isPlainObject } from '../plainObject.js';
import { jsonSize } from '../models/providers/streamEvent.js';
import { IMAGE_MIME_TYPES } from '../models/providers/modelRequest.js';

/**
 * The bounds of one sampling request (docs/rules/sampling.md#bounds): checked
 * before anything is shown or sent, so a server cannot flood the user's
 * screen or the model with what it asks.
 */
export const SAMPLING_LIMITS = {
  messages: 50,
  /** Characters of text in all: the system prompt, every message, every tool result. */
  textChars: 100_000,
  images: 4,
  /** Base64 characters of one image (about 3 MB decoded). */
  imageChars: 4_000_000,
  tools: 32,
  /** Characters of the tools' definitions as JSON, all together. */
  toolChars: 64_000,
  /** The most tokens an answer may have: a larger `maxTokens` is clamped to this. */
  maxTokens: 4_096,
} as const;

/** A tool the server offers the model in this request (its schema sent as given). */
export interface SamplingTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface CheckedSampling {
  systemPrompt: string;
  messages: SamplingMessage[];
  /** Clamped to SAMPLING_LIMITS.maxTokens. */
  maxTokens: number;
  tools: SamplingTool[];
  temperature?: number;
}

type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** One content block; `at` names it in a reason. */
function checkPart(raw: unknown, at: string, role: 'user' | 'assistant'): Checked<SamplingPart> {
  if (!isPlainObject(raw)) return fail(`${at} is not an object`);
  switch (raw.type) {
    case 'text':
      return typeof raw.text === 'string' ? { ok: true, value: { type: 'text', text: raw.text } } : fail(`${at}.text is not a string`);
    case 'image': {
      if (role !== 'user') return fail(`${at} is an image in an assistant message; models take images from the user only`);
      if (typeof raw.mimeType !== 'string' || !IMAGE_MIME_TYPES.includes(raw.mimeType)) return fail(`${at}.mimeType ${JSON.stringify(raw.mimeType)} is not one of ${IMAGE_MIME_TYPES.join(', ')}`);
      if (typeof raw.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(raw.data)) return fail(`${at}.data is not base64`);
      if (raw.data.length > SAMPLING_LIMITS.imageChars) return fail(`${at} is ${raw.data.length} base64 characters; at most ${SAMPLING_LIMITS.imageChars}`);
      return { ok: true, value: { type: 'image', mimeType: raw.mimeType as 'image/png', data: raw.data } };
    }
    case 'tool_use':
      if (role !== 'assistant') return fail(`${at} is a tool_use in a user message; only the assistant uses tools`);
      if (typeof raw.id !== 'string' || typeof raw.name !== 'string' || !isPlainObject(raw.input)) return fail(`${at} needs a string id and name and an object input`);
      return { ok: true, value: { type: 'tool_use', id: raw.id, name: raw.name, input: raw.input } };
    case 'tool_result': {
      if (role !== 'user') return fail(`${at} is a tool_result in an assistant message; results come from the user side`);
      if (typeof raw.toolUseId !== 'string') return fail(`${at}.toolUseId is not a string`);
      // The server sends `content` blocks; a face sends back the `text` it was shown.
      const blocks = raw.content === undefined ? (typeof raw.text === 'string' ? [{ type: 'text', text: raw.text }] : []) : raw.content;
      if (!Array.isArray(blocks)) return fail(`${at}.content is not a list`);
      // A tool's result reaches the model as its text; other blocks are refused rather than silently dropped.
      const texts: string[] = [];
      for (const [i, block] of blocks.entries()) {
        if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') return fail(`${at}.content[${i}] is not text; a tool result is sent to the model as text only`);
        texts.push(block.text);
      }
      return { ok: true, value: { type: 'tool_result', toolUseId: raw.toolUseId, text: texts.join('\n'), isError: raw.isError === true } };
    }
    default:
      return fail(`${at} has content type ${JSON.stringify(raw.type)}, which ChatOS does not sample with (text, image, tool_use and tool_result are)`);
  }
}

/** The messages, each block checked, within the bounds (with the system prompt's characters). */
export function checkMessages(raw: unknown, systemPrompt: string): Checked<SamplingMessage[]> {
  if (!Array.isArray(raw) || raw.length === 0) return fail('messages must be a non-empty list');
  if (raw.length > SAMPLING_LIMITS.messages) return fail(`${raw.length} messages; at most ${SAMPLING_LIMITS.messages}`);
  const messages: SamplingMessage[] = [];
  let chars = systemPrompt.length;
  let images = 0;
  for (const [m, message] of raw.entries()) {
    if (!isPlainObject(message)) return fail(`messages[${m}] is not an object`);
    const role = message.role;
    if (role !== 'user' && role !== 'assistant') return fail(`messages[${m}].role ${JSON.stringify(role)} is neither "user" nor "assistant"`);
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const content: SamplingPart[] = [];
    for (const [b, block] of blocks.entries()) {
      const part = checkPart(block, `messages[${m}].content[${b}]`, role);
      if (!part.ok) return part;
      if (part.value.type === 'text' || part.value.type === 'tool_result') chars += part.value.text.length;
      if (part.value.type === 'tool_use') chars += jsonSize(part.value.input);
      if (part.value.type === 'image') images++;
      content.push(part.value);
    }
    messages.push({ role, content });
  }
  if (chars > SAMPLING_LIMITS.textChars) return fail(`the request has ${chars} characters of text; at most ${SAMPLING_LIMITS.textChars}`);
  if (images > SAMPLING_LIMITS.images) return fail(`the request has ${images} images; at most ${SAMPLING_LIMITS.images}`);
  return { ok: true, value: messages };
}

function checkTools(raw: unknown, toolChoice: unknown): Checked<SamplingTool[]> {
  if (raw === undefined) return { ok: true, value: [] };
  if (!Array.isArray(raw)) return fail('tools is not a list');
  if (raw.length > SAMPLING_LIMITS.tools) return fail(`${raw.length} tools; at most ${SAMPLING_LIMITS.tools}`);
  if (jsonSize(raw) > SAMPLING_LIMITS.toolChars) return fail(`the tools' definitions are over ${SAMPLING_LIMITS.toolChars} characters`);
  const tools: SamplingTool[] = [];
  for (const [i, tool] of raw.entries()) {
    if (!isPlainObject(tool) || typeof tool.name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(tool.name)) return fail(`tools[${i}].name must be 1 to 64 letters, digits, _ or -`);
    if (!isPlainObject(tool.inputSchema)) return fail(`tools[${i}].inputSchema is not an object`);
    tools.push({ name: tool.name, description: typeof tool.description === 'string' ? tool.description : '', inputSchema: tool.inputSchema });
  }
  // "none": the model must not use a tool, so none is offered.
  const mode = isPlainObject(toolChoice) ? toolChoice.mode : undefined;
  return { ok: true, value: mode === 'none' ? [] : tools };
}

/** The maxTokens asked, clamped to the host's bound. */
function checkMaxTokens(raw: unknown): Checked<number> {
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1) return fail(`maxTokens ${JSON.stringify(raw)} is not a positive whole number`);
  return { ok: true, value: Math.min(raw, SAMPLING_LIMITS.maxTokens) };
}

/** A `sampling/createMessage` request's params as the server sent them: checked and bounded, or the reason it is refused. */
export function checkSamplingParams(params: Record<string, unknown>): Checked<CheckedSampling> {
  const systemPrompt = params.systemPrompt ?? '';
  if (typeof systemPrompt !== 'string') return fail('systemPrompt is not a string');
  const messages = checkMessages(params.messages, systemPrompt);
  if (!messages.ok) return messages;
  const maxTokens = checkMaxTokens(params.maxTokens);
  if (!maxTokens.ok) return maxTokens;
  const tools = checkTools(params.tools, params.toolChoice);
  if (!tools.ok) return tools;
  const temperature = typeof params.temperature === 'number' && params.temperature >= 0 && params.temperature <= 2 ? params.temperature : undefined;
  return { ok: true, value: { systemPrompt, messages: messages.value, maxTokens: maxTokens.value, tools: tools.value, ...(temperature === undefined ? {} : { temperature }) } };
}

/** The request with the user's edits applied, checked again by the same bounds (a token count may only go down). */
export function applyEdits(request: CheckedSampling, edits: SamplingEdits): Checked<CheckedSampling> {
  const systemPrompt = edits.systemPrompt ?? request.systemPrompt;
  const messages = checkMessages(edits.messages ?? request.messages, systemPrompt);
  if (!messages.ok) return messages;
  const maxTokens = Math.min(edits.maxTokens ?? request.maxTokens, request.maxTokens);
  return { ok: true, value: { ...request, systemPrompt, messages: messages.value, maxTokens } };
}
