import type { ElicitationAction, ElicitationContent, ElicitationField, ElicitationRequest } from '../shared/elicitation.js';
import { visibleControls, visibleInline } from '../shared/visibleText.js';
import type { Ask } from './confirmationQuestion.js';

/** A field's current value as the terminal shows it (the default, or what was typed). */
function shown(field: ElicitationField, value: unknown): string {
  if (value === undefined) return '';
  if (field.type === 'boolean') return value ? 'yes' : 'no';
  const label = (v: unknown) => visibleInline(field.options?.find((o) => o.value === v)?.label ?? String(v));
  if (field.type === 'multi' && Array.isArray(value)) return value.map(label).join(', ');
  return field.type === 'enum' ? label(value) : visibleInline(String(value));
}

/** `1) label` lines of a select's choices. */
const choices = (field: ElicitationField) => (field.options ?? []).map((option, i) => `    ${i + 1}) ${visibleInline(option.label)}`);

/** What a typed line means for this field: a value, `keep` (Enter: the value it has stays), or a problem to say before asking again. */
function parse(field: ElicitationField, line: string): { value: ElicitationContent[string] } | { keep: true } | { problem: string } {
  const text = line.trim();
  if (!text) return { keep: true };
  const pick = (n: string) => field.options?.[Number(n) - 1]?.value;
  switch (field.type) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { problem: 'answer y or n' };
    case 'number':
    case 'integer': {
      const n = Number(text);
      return Number.isFinite(n) ? { value: n } : { problem: 'type a number' };
    }
    case 'enum': {
      const value = /^\d+$/.test(text) ? pick(text) : undefined;
      return value !== undefined ? { value } : { problem: `type a number from 1 to ${field.options?.length ?? 0}` };
    }
    case 'multi': {
      const picked = text.split(/[\s,]+/).map((n) => (/^\d+$/.test(n) ? pick(n) : undefined));
      return picked.every((v) => v !== undefined) ? { value: [...new Set(picked as string[])] } : { problem: `type numbers from 1 to ${field.options?.length ?? 0}, separated by commas` };
    }
    default:
      return { value: line };
  }
}

/** Asks one field until the line typed fits its type; Enter keeps what it has (its default). */
async function askField(ask: Ask, field: ElicitationField, current: unknown): Promise<ElicitationContent[string] | undefined> {
  const name = visibleInline(field.title ?? field.name);
  const about = field.description ? ` (${visibleInline(field.description)})` : '';
  const how = field.type === 'boolean' ? ' [y/n]' : field.type === 'enum' ? ' [a number]' : field.type === 'multi' ? ' [numbers, comma-separated]' : field.format ? ` [${field.format}]` : '';
  const lines = [`  ${name}${field.required ? ' *' : ''}${about}`, ...(field.type === 'enum' || field.type === 'multi' ? choices(field) : [])];
  let note = '';
  for (;;) {
    const keep = current === undefined ? '' : ` (Enter keeps: ${shown(field, current)})`;
    const reply = parse(field, await ask([...lines, `${note}  ${name}${how}${keep}: `].join('\n')));
    if ('keep' in reply) return current as ElicitationContent[string] | undefined;
    if ('value' in reply) return reply.value;
    note = `  ${reply.problem}\n`;
  }
}

/**
 * Asks the fields of a form on the terminal (docs/reference/cli.md#questions-from-servers), each
 * starting at `content`'s value (the default), and returns the values.
 */
export async function askFields(ask: Ask, fields: readonly ElicitationField[], content: ElicitationContent): Promise<ElicitationContent> {
  const answered: [string, ElicitationContent[string]][] = Object.entries(content);
  const values = new Map(answered);
  for (const field of fields) {
    const value = await askField(ask, field, values.get(field.name));
    if (value === undefined) values.delete(field.name);
    else values.set(field.name, value);
  }
  return Object.fromEntries(values);
}

/** The question's heading: who asks, in the server's own words (shown as its words, never obeyed). */
export function questionHeading(request: ElicitationRequest): string {
  const who = `server ${visibleInline(request.serverName)} (${visibleInline(request.serverId)}) asks:`;
  return `${who}\n  ${visibleControls(request.message).replace(/\n/g, '\n  ')}`;
}

/** After the form: send it (accept), decline, or cancel; anything else asks again. */
export async function askFormAction(ask: Ask): Promise<ElicitationAction> {
  for (;;) {
    const reply = (await ask('send these answers? [a = accept, d = decline, c = cancel] ')).trim().toLowerCase();
    if (reply === 'a' || reply === 'accept') return 'accept';
    if (reply === 'd' || reply === 'decline') return 'decline';
    if (reply === 'c' || reply === 'cancel') return 'cancel';
  }
}

/** A url to open: the domain first (and a warning for a punycode one), then the url; y accepts, anything else declines. The CLI never opens it. */
export async function askUrl(ask: Ask, request: Extract<ElicitationRequest, { mode: 'url' }>): Promise<ElicitationAction> {
  const warning = request.lookAlike ? `\n  warning: ${visibleInline(request.domain)} is written in punycode; it may imitate another name` : '';
  const reply = await ask(
    `${questionHeading(request)}\n  it asks you to open a page on ${visibleInline(request.domain)}${warning}\n  url: ${visibleInline(request.url)}\n  open it yourself in a browser; go ahead? [y/N] `,
  );
  return /^(y|yes)$/i.test(reply.trim()) ? 'accept' : 'decline';
}
