import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { BuiltinToolName } from '../../shared/builtinTools.js';
import { DEFAULT_TOOL_TIMEOUT_MS, type InProcessOptions, type ServerDefinition } from '../../shared/mcp.js';
import { HOST_APP_ID } from '../dataHome.js';
import type { BuiltinSettings } from '../mcp/config/builtinSettings.js';
import type { Scheduler } from '../ports.js';
import { registryId } from '../registry/registryTables.js';
import { CalculatorError } from './calculator.js';
import { CalculatorThread } from './calculatorThread.js';
import { htmlToMarkdown } from './htmlMarkdown.js';
import { fetchPage, FetchError, FETCH_MAX_BYTES, type PageFetchOptions } from './pageFetch.js';
import { checkZone, hostZone, instantOf, listZones, TimeZoneError, zonedTime } from './timeZones.js';

/**
 * The built-in tools as MCP servers (docs/using/mcp-servers.md#built-in-tools):
 * each an SDK McpServer the runtime connects to over the SDK's in-memory
 * transport, so the catalog, grants, permission levels, confirmation, audit
 * and the gateway treat them exactly like any other server. Every tool is
 * `read`: it changes nothing on the machine. fetch reaches the network, and
 * refuses private addresses unless the user allowed them. Built with the v2
 * server package and served per connection by serveStdio (serverConnection.ts),
 * so a 2026-07-28 client is answered statelessly and a 2025 one over initialize.
 */

/** The longest answer fetch gives in one call; the rest is fetched again from `start_index`. */
export const FETCH_MAX_CHARS = 100_000;

const text = (value: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) });
const json = (value: Record<string, unknown>): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value });

/** A failure the model can read and act on; anything else is a bug and is rethrown. */
function answerFailure(error: unknown, known: (error: unknown) => boolean): CallToolResult {
  if (known(error)) return text((error as Error).message, true);
  throw error;
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false } as const;

function timeServer(now: () => number): McpServer {
  const server = new McpServer({ name: 'chatos-time', version: '0.1.0' });
  const isZoneError = (error: unknown) => error instanceof TimeZoneError;
  server.registerTool(
    'get_current_time',
    {
      description: `The current date and time in a time zone (IANA name, e.g. "Asia/Shanghai"); default the zone ChatOS runs in (${hostZone()}).`,
      inputSchema: z.object({ timezone: z.string().max(100).optional().describe('IANA time zone name, e.g. "Europe/London"') }),
      annotations: READ_ONLY,
    },
    ({ timezone }) => {
      try {
        return json({ ...zonedTime(now(), timezone ?? hostZone()) });
      } catch (error) {
        return answerFailure(error, isZoneError);
      }
    },
  );
  server.registerTool(
    'convert_time',
    {
      description: 'A wall-clock time of one time zone as the same moment in another. time: "HH:MM" (today in the source zone) or "YYYY-MM-DDTHH:MM".',
      inputSchema: z.object({
        time: z.string().max(40).describe('"16:30" or "2026-03-29T01:30"'),
        source_timezone: z.string().max(100),
        target_timezone: z.string().max(100),
      }),
      annotations: READ_ONLY,
    },
    ({ time, source_timezone, target_timezone }) => {
      try {
        const source = checkZone(source_timezone);
        const target = checkZone(target_timezone);
        const instant = instantOf(time, source, now());
        const from = zonedTime(instant, source);
        const to = zonedTime(instant, target);
        const hours = (Date.parse(to.datetime.slice(0, 19) + 'Z') - Date.parse(from.datetime.slice(0, 19) + 'Z')) / 3_600_000;
        return json({ source: from, target: to, timeDifference: `${hours >= 0 ? '+' : ''}${hours}h` });
      } catch (error) {
        return answerFailure(error, isZoneError);
      }
    },
  );
  server.registerTool(
    'list_time_zones',
    {
      description: 'The IANA time zone names ChatOS knows, optionally those containing a word (e.g. "america", "shanghai").',
      inputSchema: z.object({ filter: z.string().max(100).optional() }),
      annotations: READ_ONLY,
    },
    ({ filter }) => {
      const zones = listZones(filter);
      return json({ count: zones.length, zones });
    },
  );
  return server;
}

function calculatorServer(scheduler: Scheduler): McpServer {
  const server = new McpServer({ name: 'chatos-calculator', version: '0.1.0' });
  // On a thread of its own, with a deadline: an endless calculation must not stop the host's thread.
  const thread = new CalculatorThread({ scheduler });
  server.server.onclose = () => thread.dispose();
  server.registerTool(
    'calculate',
    {
      description:
        'Exact decimal arithmetic (0.1 + 0.2 = 0.3, 64 significant digits) with units: "2^64", "sqrt(2)", "5 cm to inch", "100 degF to degC", "60 km/h to m/s", "1 GiB to MB". ' +
        'Functions: abs, sqrt, cbrt, nthRoot, exp, log, log10, log2, trigonometry, round, floor, ceil, mod, gcd, lcm, pow, min, max, hypot, sign; constants pi, e, tau, phi. No variables or function definitions.',
      inputSchema: z.object({ expression: z.string().describe('one expression, e.g. "(1.1 + 2.2) * 3" or "3 feet to cm"') }),
      annotations: READ_ONLY,
    },
    async ({ expression }) => {
      try {
        return text(await thread.calculate(expression));
      } catch (error) {
        return answerFailure(error, (e) => e instanceof CalculatorError);
      }
    },
  );
  return server;
}

const HTML = /^(text\/html|application\/xhtml\+xml)\b/i;
const TEXT = /^(text\/|application\/(json|xml|javascript|ld\+json|[\w.-]+\+(json|xml))\b)/i;

function fetchServer(options: InProcessOptions): McpServer {
  const fetchOptions: PageFetchOptions = { allowPrivateAddresses: options.allowPrivateAddresses === true };
  const server = new McpServer({ name: 'chatos-fetch', version: '0.1.0' });
  server.registerTool(
    'fetch',
    {
      description:
        `Fetches a web page (http or https) and answers its content as Markdown (raw: the text as served), at most ${FETCH_MAX_CHARS} characters per call; ` +
        'a longer page says where to continue (start_index). Redirects are followed (at most 5). ' +
        (fetchOptions.allowPrivateAddresses ? 'Private and loopback addresses are allowed by the user.' : 'Private, loopback and link-local addresses are refused.'),
      inputSchema: z.object({
        url: z.string().max(8192).describe('an http(s) url'),
        max_length: z.number().int().min(1).max(FETCH_MAX_CHARS).default(FETCH_MAX_CHARS).describe('characters to answer at most'),
        start_index: z.number().int().min(0).default(0).describe('where to start in the content (to continue a cut answer)'),
        raw: z.boolean().default(false).describe('the content as served, not converted to Markdown'),
      }),
      annotations: { ...READ_ONLY, openWorldHint: true },
    },
    async ({ url, max_length, start_index, raw }) => {
      try {
        const page = await fetchPage(url, fetchOptions);
        const contentType = page.contentType.split(';')[0]!.trim() || 'unknown';
        if (page.text !== '' && !HTML.test(contentType) && !TEXT.test(contentType)) {
          return text(`${page.url} is ${contentType}, not a page of text; fetch answers HTML and text only`, true);
        }
        const notes: string[] = [];
        let content = page.text;
        if (!raw && HTML.test(contentType)) {
          const converted = await htmlToMarkdown(page.text);
          content = converted.markdown;
          if (converted.note) notes.push(converted.note);
        }
        if (page.cut) notes.push(`the page is larger than ${FETCH_MAX_BYTES / (1024 * 1024)} MB: only its first ${FETCH_MAX_BYTES / (1024 * 1024)} MB were read`);
        const part = content.slice(start_index, start_index + max_length);
        const rest = content.length - (start_index + part.length);
        if (rest > 0) notes.push(`cut: ${rest} more characters; call fetch again with start_index ${start_index + part.length} to read on`);
        if (start_index > 0 && part === '') notes.push(`start_index ${start_index} is past the end of the content (${content.length} characters)`);
        const head = `${page.url} (HTTP ${page.status}, ${contentType})${notes.length ? `\n[${notes.join('; ')}]` : ''}`;
        return text(`${head}\n\n${part}`, page.status >= 400);
      } catch (error) {
        return answerFailure(error, (e) => e instanceof FetchError);
      }
    },
  );
  return server;
}

/** What the built-in tools take from the host: its clock, and its timers for the calculator's deadline. */
interface BuiltinToolDeps {
  now: () => number;
  scheduler: Scheduler;
}

interface BuiltinTool {
  name: BuiltinToolName;
  title: { zh: string; en: string };
  description: { zh: string; en: string };
  /** Its tools' raw names, each at level `read`. */
  tools: readonly string[];
  create(deps: BuiltinToolDeps, options: InProcessOptions): McpServer;
}

export const BUILTIN_TOOLS: readonly BuiltinTool[] = [
  {
    name: 'time',
    title: { zh: '时间', en: 'Time' },
    description: { zh: '当前时间、时区列表与时区换算。', en: 'The current time, the list of time zones, and conversions between them.' },
    tools: ['get_current_time', 'convert_time', 'list_time_zones'],
    create: (deps) => timeServer(deps.now),
  },
  {
    name: 'fetch',
    title: { zh: '网页抓取', en: 'Fetch' },
    description: {
      zh: '抓取网页并转换为 Markdown（仅 http/https，最多 5 次重定向，默认拒绝内网与本机地址）。',
      en: 'Fetches a web page as Markdown (http/https only, at most 5 redirects, private and loopback addresses refused by default).',
    },
    tools: ['fetch'],
    create: (_deps, options) => fetchServer(options),
  },
  {
    name: 'calculator',
    title: { zh: '计算器', en: 'Calculator' },
    description: { zh: '精确的十进制计算与单位换算（0.1 + 0.2 = 0.3，5 cm to inch）。', en: 'Exact decimal arithmetic and unit conversion (0.1 + 0.2 = 0.3, 5 cm to inch).' },
    tools: ['calculate'],
    create: (deps) => calculatorServer(deps.scheduler),
  },
];

/** What each built-in tool does, by registry id, for its registry row (English, as every row's description). */
export const BUILTIN_TOOL_DESCRIPTIONS: ReadonlyMap<string, string> = new Map(BUILTIN_TOOLS.map((tool) => [registryId(HOST_APP_ID, tool.name), tool.description.en]));

/** The in-process factories of the built-in tools, by server name. */
export function builtinToolFactories(deps: BuiltinToolDeps): Map<string, (options: InProcessOptions) => McpServer> {
  return new Map(BUILTIN_TOOLS.map((tool) => [tool.name, (options: InProcessOptions) => tool.create(deps, options)]));
}

/**
 * A switched-on built-in tool as the runtime sees it: under `chatos`, one
 * shared instance (it keeps no state between calls), every tool `read`,
 * and fetch's private-address choice in its transport's options, so
 * changing it restarts the server.
 */
function builtinToolDefinition(tool: BuiltinTool, options: InProcessOptions): ServerDefinition {
  return {
    id: registryId(HOST_APP_ID, tool.name),
    name: tool.name,
    providerAppId: HOST_APP_ID,
    origin: 'builtin',
    category: 'builtin',
    transport: { kind: 'in-process', server: tool.name, ...(Object.keys(options).length ? { options } : {}) },
    trulyStateless: true,
    tools: { whitelist: [], blacklist: [] },
    transform: [],
    allowMain: true,
    allowSub: true,
    timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    permissions: tool.tools.map((name) => ({ pattern: name, level: 'read' as const })),
    disabledTools: [],
    disabled: false,
    meta: {},
  };
}

/** The definitions of the built-in tools `settings` (mcp.yaml's `builtins:` block) switches on. */
export function switchedOnDefinitions(settings: BuiltinSettings): ServerDefinition[] {
  return BUILTIN_TOOLS.filter((tool) => settings[tool.name]?.enabled === true).map((tool) =>
    builtinToolDefinition(tool, tool.name === 'fetch' ? { allowPrivateAddresses: settings.fetch?.allowPrivateAddresses === true } : {}),
  );
}
