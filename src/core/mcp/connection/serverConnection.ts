import { ProtocolError, SdkError, SdkErrorCode, StreamableHTTPClientTransport as ModernHttpTransport, type Transport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/server';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError, type CallToolResult, type Progress, type ReadResourceResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_TOTAL_TIMEOUT_MS, type EnvValue, type InProcessOptions, type LogLevel, type ServerDefinition } from '../../../shared/mcp.js';
import { refusalText, type RunGateAnswer } from '../../policy/runGate.js';
import { resolveEnvValues, type EnvResolution } from '../config/mcpConfigLoader.js';
import { readStoredValues, storedValueNames, type ReadStoredValue } from '../config/envValues.js';
import { checkServerUrl, connectFailureHint } from '../config/transports.js';
import { ClientFeatures, modernCapabilities, type ClientSession } from '../client/clientFeatures.js';
import type { McpWire, ProtocolEra } from '../client/mcpWire.js';
import { isLegacyVerdict, isProbeSignInRefusal } from './eraProbe.js';
import { probeStdioEra } from './stdioEraProbe.js';
import { MAX_INPUT_ROUNDS, MODERN_PROTOCOL_VERSION } from '../client/modernClient.js';
import type { PromptsClient } from '../client/promptsClient.js';
import type { ToolListing, ToolsClient } from '../client/toolsClient.js';
import type { RejectedTool } from '../client/checkedTools.js';
import type { UserWaits } from '../client/userWaits.js';
import { CallAbort } from './callAbort.js';
import { CallDeadline } from './callDeadline.js';
import { systemScheduler, type Scheduler } from '../../ports.js';
import { ResourcesClient } from '../client/resourcesClient.js';
import { boundedMcpFetch, MAX_MESSAGE_BYTES } from './boundedMcpFetch.js';
import { viewReads } from './viewReads.js';
import { serveInProcess } from './inProcessServe.js';
import { connectTimeoutOf, targetOf, withDeadline } from './connectDeadline.js';
import { ServerFaultError } from '../../process/serverFaultError.js';
import { ANSWER_TOO_LARGE } from '../../process/overlongAnswer.js';
import { commandTrouble } from '../serverTrouble.js';
import { ProcessTransport, type ExitInfo } from '../../process/processTransport.js';
import { serverEnvironment } from '../../process/serverEnvironment.js';
import { nodeLaunch, pathOf } from '../../runtime/nodeRuntime.js';
import { withTimeout } from '../../process/processTree.js';
import type { PidRegistry } from '../../process/pidRegistry.js';
import type { ServerLog } from '../../process/serverLog.js';
import { McpRuntimeError, serverRpcError, type StartFailureReason } from '../mcpRuntimeError.js';
import type { OAuthService } from '../auth/oauthService.js';
import { oauthTargetOf } from '../auth/oauthTarget.js';
import { signInFailure } from '../auth/signInFailure.js';

/** How long a failed start waits, after ending its process, for the exit and last output to be read. */
const EXIT_KNOWN_MS = 2_000;

/** A connection's state, for the UI and for callers deciding whether to wait. */
export type ConnectionState = { kind: 'stopped' } | { kind: 'starting' } | { kind: 'running'; pid?: number; since: number } | { kind: 'error'; message: string; at: number };

export interface ConnectionDeps {
  log: ServerLog;
  pids?: PidRegistry;
  hostEnv: NodeJS.ProcessEnv;
  clientInfo: { name: string; version: string };
  now: () => number;
  /** Where a call's own timeout runs (CallDeadline): the host's scheduler; default the system's. */
  scheduler?: Scheduler;
  /** Servers that run inside the host (the settings server, the built-in tools), by name: each call makes a new server instance. */
  inProcessServers?: ReadonlyMap<string, InProcessServerFactory>;
  /**
   * The run gate, asked at the moment of spawning (or, for a url, of
   * connecting): a refusal starts nothing. Every connection has one, so no
   * caller (a lease, a reload probe) can start a server without it.
   */
  gate: (definition: ServerDefinition) => RunGateAnswer;
  /** mcp.yaml's path, for a fix that names where a server's command is written. */
  configFile?: string;
  /** Reads a `{ secret: NAME }` value from the host's key store, when the server starts. */
  readStoredValue?: ReadStoredValue;
  /** What the client declares and answers beyond tools (mcp/client/clientFeatures.ts); default: tools alone. */
  features?: ClientFeatures;
  /** The conversation whose instance this is (`*`: shared), so what the server asks is put to who calls it; none for a probe. */
  lease?: string;
  /** Sign-in to remote servers (OAuth): the stored token is sent, refreshed once when refused, else SIGN_IN_NEEDED. */
  oauth?: Pick<OAuthService, 'forConnection' | 'stepUpExhausted'>;
  /** The level the user set for this server's log messages (`logging/setLevel`), sent to it as it starts; none: the server's own default. */
  logLevel?: () => LogLevel | undefined;
  /** The server answered initialize: the `instructions` it gave, if any (docs/rules/chat.md#server-instructions). */
  onInstructions?: (definition: ServerDefinition, instructions: string | undefined) => void;
  /** An instance started, speaking this protocol (docs/using/mcp-servers.md#protocol-eras). */
  onProtocol?: (definition: ServerDefinition, protocol: { era: ProtocolEra; version?: string }) => void;
  /** The server said its tool list changed and the new list came (docs/rules/mcp-yaml.md#tool-list-changes). */
  onToolsChanged?: (definition: ServerDefinition, listing: ToolListing) => void;
}

/** Makes one instance of an in-process server, from the options its definition carries. */
export type InProcessServerFactory = (options: InProcessOptions) => McpServer;

/** Tools alone: what a connection made without the host's features declares and answers. */
const TOOLS_ONLY = new ClientFeatures();

/** The timeout is the definition's own (`timeout` in mcp.yaml, default 60 s). */
export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

/**
 * One MCP client instance for one server definition: spawn (or connect),
 * initialize, list tools, call, close. Many calls may be in flight at once;
 * `close()` lets them finish (up to a forced timeout) before ending the
 * process tree.
 */
export class ServerConnection {
  state: ConnectionState = { kind: 'stopped' };
  private client: McpWire | undefined;
  private transport: Transport | undefined;
  /** The era the running server speaks (docs/rules/mcp-yaml.md#protocol-eras), and the revision agreed; none until a start succeeds. */
  private spoken: { era: ProtocolEra; version?: string } | undefined;
  /** The tools of the client (its tools feature): none until a start succeeds; the last list stays after a close. */
  private toolsClient: ToolsClient | undefined;
  /** The prompts of the client: none until a start succeeds. */
  private promptsClient: PromptsClient | undefined;
  /** The questions the server put to the user that wait now: the calls' own timeouts stand still meanwhile. */
  private userWaits: UserWaits | undefined;
  /** The deadlines of the requests in flight: a question to the user starting or ending restarts them all. */
  private readonly deadlines = new Set<CallDeadline>();
  /** The aborts of the requests in flight: a server that mixes the protocol eras ends them all (eraMixed). */
  private readonly aborts = new Set<CallAbort>();
  private readonly userAsked = () => this.userWaits?.waiting === true;
  /** The server's resources, over the same client: none until a start succeeds. */
  private resourcesClient: ResourcesClient | undefined;
  private inFlightCount = 0;
  private idle: (() => void)[] = [];
  private crashed: string | undefined;
  /** Every transport a start opened: all are closed when the start fails (or its connect timeout ends it). */
  private attempts: Transport[] = [];
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();

  /** Every call's two limits, the definition's (a connection's never changes): one object, not one per call. */
  private readonly callLimits: { timeoutMs: number; totalMs: number };

  constructor(
    readonly definition: ServerDefinition,
    private readonly deps: ConnectionDeps,
  ) {
    this.callLimits = { timeoutMs: definition.timeoutMs, totalMs: this.maxTotalMs() };
  }

  get tools(): readonly Tool[] {
    return this.toolsClient?.list ?? [];
  }

  /** The tools of the last list the host cannot offer (a broken schema), each with why; the server's other tools are kept. */
  get rejectedTools(): readonly RejectedTool[] {
    return this.toolsClient?.rejected ?? [];
  }

  /** The server's MCP prompts (docs/using/slash-commands.md); undefined while it is not running. */
  get prompts(): PromptsClient | undefined {
    return this.state.kind === 'running' ? this.promptsClient : undefined;
  }

  /** Which protocol era (and revision) the server was spoken to in at its last start; undefined before one succeeded. */
  get protocol(): { era: ProtocolEra; version?: string } | undefined {
    return this.spoken;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  get pid(): number | undefined {
    return this.transport instanceof ProcessTransport ? this.transport.pid : undefined;
  }

  onStateChange(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  /**
   * Starts (spawns or connects), initializes and lists tools, within the
   * server's connect timeout: a url that accepts and never answers, or a
   * process that never speaks, fails the start instead of hanging its caller.
   */
  async start(): Promise<void> {
    const def = this.definition;
    this.setState({ kind: 'starting' });
    const timeoutMs = connectTimeoutOf(def);
    try {
      await withDeadline(
        this.startClient(),
        timeoutMs,
        () => new McpRuntimeError('CONNECT_TIMEOUT', `server "${def.id}" did not answer at ${targetOf(def)} within ${timeoutMs / 1000} s (its connect timeout)`, def.id),
        () => void this.closeAttempts(),
      );
      this.attempts = [];
      this.setState({ kind: 'running', pid: this.pid, since: this.deps.now() });
    } catch (error) {
      // A process that died as it started may fail the start before its exit is known (a write to it failing first): once its
      // tree is ended, its exit and first words are, and they are the reason to give.
      const spawned = this.attempts.find((transport): transport is ProcessTransport => transport instanceof ProcessTransport && transport.pid !== undefined);
      await this.closeAttempts();
      const exit = spawned && (await withTimeout(spawned.exitKnown, EXIT_KNOWN_MS)) ? spawned.exitInfo : undefined;
      const signIn = await this.signInFailure(error);
      if (signIn) {
        this.setState({ kind: 'error', message: signIn.message, at: this.deps.now() });
        throw signIn;
      }
      const failure = error instanceof McpRuntimeError ? { message: error.message, fix: error.fix } : this.startFailure(error as Error, spawned, exit);
      this.setState({ kind: 'error', message: failure.message, at: this.deps.now() });
      const reason = error instanceof McpRuntimeError ? error.reason : startFailureReason(error);
      throw new McpRuntimeError(error instanceof McpRuntimeError ? error.code : 'SERVER_START_FAILED', failure.message, def.id, failure.fix, reason);
    }
  }

  /** The client declares what its features answer, and each feature's handlers are on it before it connects. */
  private openSession(era: ProtocolEra): ClientSession {
    return (this.deps.features ?? TOOLS_ONLY).open(this.deps.clientInfo, this.definition, this.deps.lease, this.deps.log, era);
  }

  private async startClient(): Promise<void> {
    const { session, transport } = await this.connect();
    const { client, tools, prompts, userWaits } = session;
    this.transport = transport;
    this.spoken = { era: session.era, version: session.modern?.protocolVersion ?? (transport as { protocolVersion?: string }).protocolVersion };
    this.promptsClient = prompts;
    this.userWaits = userWaits;
    userWaits.onChange(() => {
      for (const deadline of this.deadlines) deadline.restart();
    });
    this.client = client;
    if (session.modern) session.modern.onEraMix = (method) => this.eraMixed(method);
    const onChanged = this.deps.onToolsChanged;
    if (onChanged) tools.onListChanged((listing) => onChanged(this.definition, listing));
    await tools.refresh().catch(async (error: unknown) => {
      // A sign-in the first request needs (a token refused) is a sign-in, not a server of another era.
      throw session.era === 'modern' && !(await this.signInFailure(error)) ? this.eraBroken(error) : error;
    });
    this.toolsClient = tools;
    this.resourcesClient = new ResourcesClient(client);
    this.deps.onInstructions?.(this.definition, client.getInstructions());
    this.deps.onProtocol?.(this.definition, this.spoken);
    const level = this.deps.logLevel?.();
    if (level) await this.sendLogLevel(client, level);
  }

  /** Whether the server takes `logging/setLevel` (it declared logging); false while it is not running. */
  get logs(): boolean {
    return this.state.kind === 'running' && this.client?.getServerCapabilities()?.logging !== undefined;
  }

  /** Sets the level the server sends its log messages from; false when it does not log over MCP (or is not running). */
  async setLogLevel(level: LogLevel): Promise<boolean> {
    const client = this.client;
    if (!client || !this.logs) return false;
    return this.sendLogLevel(client, level);
  }

  /** A server that refuses the level is no reason to fail a start or a call: its log says so. */
  private async sendLogLevel(client: McpWire, level: LogLevel): Promise<boolean> {
    if (client.getServerCapabilities()?.logging === undefined) return false;
    try {
      await client.setLoggingLevel(level, { timeout: this.definition.timeoutMs });
      return true;
    } catch (error) {
      this.deps.log.append('lifecycle', `the server refused log level ${level}: ${(error as Error).message}`);
      return false;
    }
  }

  /**
   * Why a start failed, naming the server and where it is: a command that
   * is not there (with the PATH searched), a process that exited as it
   * started (its exit code and first stderr lines), a url that failed.
   */
  private startFailure(error: Error, spawned: ProcessTransport | undefined, exit: ExitInfo | undefined): { message: string; fix?: string } {
    const def = this.definition;
    if (def.transport.kind === 'streamable_http') return { message: `server "${def.id}" could not be reached at ${def.transport.url}: ${error.message}` };
    if (error instanceof ServerFaultError && error.code === 'SPAWN_FAILED') {
      const missing = commandTrouble(def, this.deps.hostEnv, this.deps.configFile ?? 'mcp.yaml', this.deps.now());
      return missing ? { message: missing.message, fix: missing.fix } : { message: error.message };
    }
    // Its own end, not ours: it exited before we closed it, or with an error code (stdin closing makes a server exit 0).
    if (spawned && exit && (exit.unasked || (exit.signal === null && exit.code !== 0))) {
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      const said = spawned.firstStderrLines.length ? `; its stderr began:\n  ${spawned.firstStderrLines.slice(0, 5).join('\n  ')}` : ' (it wrote nothing to stderr)';
      return { message: `server "${def.id}" ${how} as it started${said}`, fix: `run its command yourself to see why: ${targetOf(def)}` };
    }
    return { message: `server "${def.id}" failed to start: ${error.message}${this.stderrTail()}` };
  }

  /** How many times the starts under way were ended: a start that sees it change stops, starting nothing more. */
  private attemptsEnded = 0;

  /** Ending the transports of a failed start: the timeout starts it, the failure waits for all of it. */
  private closingAttempts: Promise<unknown> = Promise.resolve();

  /** Ends every transport the start opened; nothing of a failed start (a socket, a retrying event stream, a process) is left. */
  private closeAttempts(): Promise<unknown> {
    this.attemptsEnded += 1;
    const attempts = this.attempts;
    this.attempts = [];
    this.closingAttempts = Promise.all([this.closingAttempts, ...attempts.map((transport) => transport.close().catch(() => {}))]);
    return this.closingAttempts;
  }

  private stderrTail(): string {
    const lines = this.deps.log
      .tail(5, 'stderr')
      .map((e) => e.text.trimEnd())
      .filter(Boolean);
    return lines.length ? `; last stderr:\n  ${lines.join('\n  ')}` : '';
  }

  /**
   * A plugin's server reads only the stored values its own install wrote (`<pluginId>.…`, an MCP Bundle's
   * sensitive settings): the key store's names are predictable, and a `{ secret: NAME }` naming another server's
   * token would hand it to any plugin. The user's own servers (mcp.yaml) may name any value.
   */
  private checkStoredValuesOwned(values: Readonly<Record<string, EnvValue>>): void {
    const plugin = this.definition.plugin;
    if (!plugin) return;
    const own = `${plugin.pluginId}.`;
    const foreign = storedValueNames(values).find((name) => !name.startsWith(own));
    if (foreign !== undefined) {
      throw new McpRuntimeError(
        'SERVER_NOT_RUNNABLE',
        `plugin "${plugin.pluginId}" names the stored value "${foreign}", which is not its own: a plugin's server reads only values under "${own}"`,
        this.definition.id,
      );
    }
  }

  /** Throws the gate's refusal as the runtime's error; called right before a process or connection starts. */
  private passGate(): void {
    const answer = this.deps.gate(this.definition);
    if (!answer.ok) throw new McpRuntimeError('SERVER_NOT_RUNNABLE', refusalText(answer), this.definition.id);
  }

  /**
   * Connects in the era the server speaks (docs/rules/mcp-yaml.md#protocol-eras). A url is asked first whether it
   * speaks 2026-07-28 (`server/discover`, the v2 SDK client); one that does not is spoken to over `initialize` (the
   * v1 SDK client), as every server was before. A program is asked the same on its own process (connectStdio);
   * an in-process server (the host's own) speaks `initialize`.
   */
  private async connect(): Promise<{ session: ClientSession; transport: Transport }> {
    if (this.definition.transport.kind === 'streamable_http') return this.connectHttp();
    if (this.definition.transport.kind === 'stdio') return this.connectStdio();
    const session = this.openSession('legacy');
    return { session, transport: await this.connectInProcess(session.legacy!) };
  }

  /**
   * A program is asked its era on its own process first (stdioEraProbe.ts): one that offers 2026-07-28 is
   * spoken to statelessly by the v2 client, which adopts the discover answer; one that refuses the method or
   * stays silent is spoken to over `initialize` on the same process, and one that ends its process on the
   * probe is started again for it. Every start asks again, so a server updated to the other era is seen as such.
   */
  private async connectStdio(): Promise<{ session: ClientSession; transport: Transport }> {
    const ended = this.attemptsEnded;
    const transport = await this.processTransport();
    const capabilities = modernCapabilities((this.deps.features ?? TOOLS_ONLY).capabilities());
    const era = await probeStdioEra(transport, this.deps.clientInfo, capabilities, connectTimeoutOf(this.definition) / 2);
    if (era.kind === 'modern') {
      const modern = this.openSession('modern');
      try {
        await modern.modern!.connect(transport as unknown as ModernTransport, undefined, era.discover);
        return { session: modern, transport };
      } catch (error) {
        // The SDK refuses a discover answer it cannot read (it offered 2026-07-28 in a result of another shape): not a 2026 server.
        if (!isLegacyVerdict(error)) throw error;
        this.deps.log.append('lifecycle', `the server's server/discover answer is not a ${MODERN_PROTOCOL_VERSION} one (${(error as Error).message}); speaking initialize to it`);
      }
    } else if (era.kind === 'legacy') {
      this.deps.log.append('lifecycle', `the server does not speak MCP ${MODERN_PROTOCOL_VERSION} (${era.why}); speaking initialize to it`);
    }
    let target = transport;
    if (era.kind === 'exited') {
      // Ended by us (a test connection's time ran out, the server stopped): its process closing is not the server's answer.
      if (this.attemptsEnded !== ended) throw new McpRuntimeError('SERVER_START_FAILED', `the start of server "${this.definition.id}" was ended`, this.definition.id);
      this.deps.log.append('lifecycle', `the server ended its process on server/discover (a server of the 2025 era); starting it again to speak initialize to it`);
      // Its own close ends what is left of the first process's tree (a helper it started) before the second starts:
      // the process exiting only began that, and nothing of a probe may outlive it.
      this.attempts = this.attempts.filter((attempt) => attempt !== transport);
      await transport.close().catch(() => {});
      if (this.attemptsEnded !== ended) throw new McpRuntimeError('SERVER_START_FAILED', `the start of server "${this.definition.id}" was ended`, this.definition.id);
      target = await this.processTransport();
    }
    const legacy = this.openSession('legacy');
    await legacy.legacy!.connect(target);
    return { session: legacy, transport: target };
  }

  /** The server's program as a transport, not started yet (the run gate is asked as it spawns). */
  private async processTransport(): Promise<ProcessTransport> {
    const def = this.definition;
    if (def.transport.kind !== 'stdio') throw new McpRuntimeError('SERVER_START_FAILED', `server "${def.id}" has no command`, def.id);
    this.checkStoredValuesOwned(def.transport.env);
    const env = resolveEnvValues(def.transport.env, this.deps.hostEnv, def.id, await readStoredValues(def.transport.env, this.deps.readStoredValue));
    if (!env.ok) throw this.valuesMissing(env);
    const childEnv = serverEnvironment(this.deps.hostEnv, def.transport.inheritEnv, env.values);
    // A `node` command may run under the app's own Node (nodeRuntime.ts), decided on the PATH the child gets.
    const launch = nodeLaunch(def.transport.command, def.transport.nodeRuntime, pathOf(childEnv));
    const transport = new ProcessTransport({
      serverId: def.id,
      command: launch.command,
      args: [...def.transport.args],
      env: { ...childEnv, ...launch.env },
      cwd: def.transport.cwd,
      log: this.deps.log,
      pids: this.deps.pids,
      // A view's read may be larger than one message, up to the server's maxViewBytes (docs/rules/mcp-apps.md#size).
      largeAnswers: viewReads(def),
      beforeSpawn: () => this.passGate(),
    });
    this.attempts.push(transport);
    this.watchClose(transport);
    return transport;
  }

  private async connectInProcess(client: Client): Promise<Transport> {
    const def = this.definition;
    this.passGate();
    // In process: no program is spawned, so the run gate (asked above, as for a url) has nothing to start; the server is the host's own code.
    if (def.transport.kind === 'in-process') {
      const factory = this.deps.inProcessServers?.get(def.transport.server);
      if (!factory) throw new McpRuntimeError('SERVER_START_FAILED', `no in-process server "${def.transport.server}" in this host`, def.id);
      const options = def.transport.options ?? {};
      // Served for either era (inProcessServe.ts); the v2 pair carries the same JSON-RPC messages a v1 client's transport does.
      const clientSide = serveInProcess(() => factory(options)) as unknown as Transport;
      this.attempts.push(clientSide);
      this.watchClose(clientSide);
      await client.connect(clientSide);
      return clientSide;
    }
    throw new McpRuntimeError('SERVER_START_FAILED', `server "${def.id}" has no local transport`, def.id);
  }

  private async connectHttp(): Promise<{ session: ClientSession; transport: Transport }> {
    const def = this.definition;
    if (def.transport.kind !== 'streamable_http') throw new McpRuntimeError('SERVER_START_FAILED', `server "${def.id}" has no url`, def.id);
    const { url } = def.transport;
    this.passGate();
    this.checkStoredValuesOwned(def.transport.headers);
    const headers = resolveEnvValues(def.transport.headers, this.deps.hostEnv, def.id, await readStoredValues(def.transport.headers, this.deps.readStoredValue));
    if (!headers.ok) throw this.valuesMissing(headers);
    // The same rule validation applies: no url that validation refuses is connected to here either.
    const checked = checkServerUrl(def.transport.url);
    if (!checked.ok) throw new McpRuntimeError('SERVER_START_FAILED', `server "${def.id}" cannot be connected to: ${checked.message}; ${checked.hint}`, def.id, checked.hint, 'URL_REFUSED');
    // With sign-in, the static headers go to the server's own url only (never to its authorization server).
    const auth = this.deps.oauth?.forConnection(await oauthTargetOf(def, this.deps.hostEnv, this.deps.readStoredValue), headers.values);
    // Every answer is bounded before the SDK holds it (boundedMcpFetch), signed in or not.
    const options = auth
      ? { authProvider: auth.authProvider, fetch: boundedMcpFetch(auth.fetch, MAX_MESSAGE_BYTES, viewReads(def)) }
      : { requestInit: { headers: headers.values }, fetch: boundedMcpFetch(fetch, MAX_MESSAGE_BYTES, viewReads(def)) };
    const failed = async (error: unknown) => {
      if (await this.signInFailure(error)) return error;
      // Streamable HTTP only, never a silent fall back to the old HTTP+SSE transport (docs/rules/mcp-yaml.md#transports): say what failed and what to do.
      const status = error instanceof StreamableHTTPError ? error.code : (error as { data?: { status?: unknown } }).data?.status;
      return new McpRuntimeError(
        'SERVER_START_FAILED',
        `server "${def.id}" at ${url} did not connect over streamable HTTP: ${withSystemCode(error as Error)}; ${connectFailureHint(checked.url, typeof status === 'number' ? status : undefined)}`,
        def.id,
        undefined,
        'HTTP_CONNECT_FAILED',
      );
    };
    // 2026-07-28 first: stateless, so no session id is kept or sent.
    const modern = this.openSession('modern');
    const modernTransport = new ModernHttpTransport(checked.url, options as ConstructorParameters<typeof ModernHttpTransport>[1]);
    const asTransport = modernTransport as ModernTransport as unknown as Transport;
    // Closed with the rest of a failed start's transports (see closeAttempts).
    this.attempts.push(asTransport);
    this.watchClose(asTransport);
    try {
      await modern.modern!.connect(modernTransport);
      return { session: modern, transport: asTransport };
    } catch (error) {
      if (!isLegacyVerdict(error) && !isProbeSignInRefusal(error)) throw await failed(error);
      this.deps.log.append('lifecycle', `the server does not speak MCP ${MODERN_PROTOCOL_VERSION} (no server/discover); speaking initialize to it`);
      await modernTransport.close().catch(() => {});
    }
    const legacy = this.openSession('legacy');
    const transport = new StreamableHTTPClientTransport(checked.url, { ...options, sessionId: def.transport.sessionId });
    this.attempts.push(transport);
    this.watchClose(transport);
    try {
      await legacy.legacy!.connect(transport);
    } catch (error) {
      throw await failed(error);
    }
    return { session: legacy, transport };
  }

  /**
   * A server that answered `server/discover` for 2026-07-28 and then failed its first request: it said one era and
   * speaks another (a 2025 server behind a 2026 front, a half-updated deployment). Said as that, naming the server.
   */
  private eraBroken(error: unknown): McpRuntimeError {
    const def = this.definition;
    return new McpRuntimeError(
      'SERVER_MISBEHAVED',
      `server "${def.id}" said it speaks MCP ${MODERN_PROTOCOL_VERSION} (server/discover) and then did not answer as a ${MODERN_PROTOCOL_VERSION} server: ${(error as Error).message}`,
      def.id,
      "the server's deployment mixes protocol versions: tell its operator, or update it",
      'HANDSHAKE_FAILED',
    );
  }

  /**
   * A 2026-07-28 server sent a request of its own (`method`, a 2025 server→client request), which that wire has
   * none of: the SDK drops it unanswered, so the calls in flight (one of which it was for) would wait for their
   * timeout. They end now, with a problem naming the server; the connection stays for the calls that follow.
   */
  private eraMixed(method: string): void {
    const def = this.definition;
    const mixed = new McpRuntimeError(
      'SERVER_MISBEHAVED',
      `server "${def.id}" speaks MCP ${MODERN_PROTOCOL_VERSION} and sent a ${method} request as a 2025 server does (on ${MODERN_PROTOCOL_VERSION} a server asks inside a result, input_required); the calls waiting on it ended`,
      def.id,
      'the server mixes protocol versions: tell its author, or update it',
    );
    this.deps.log.append('lifecycle', mixed.message);
    for (const abort of this.aborts) abort.abort(mixed);
  }

  /** A failure that is about signing in, as the runtime's error (SIGN_IN_NEEDED or SIGN_IN_FAILED); undefined for any other. */
  private async signInFailure(error: unknown): Promise<McpRuntimeError | undefined> {
    const def = this.definition;
    if (def.transport.kind !== 'streamable_http' || !this.deps.oauth) return undefined;
    return signInFailure(error, def, () => this.deps.oauth!.stepUpExhausted({ serverId: def.id, serverUrl: (def.transport as { url: string }).url, client: {} }));
  }

  private valuesMissing(resolution: Extract<EnvResolution, { ok: false }>): McpRuntimeError {
    const id = this.definition.id;
    const message =
      resolution.reason === 'ENV_MISSING'
        ? `server "${id}" cannot start: environment variable ${resolution.missing.join(', ')} is not set in the host's environment`
        : `server "${id}" cannot start: its stored value ${resolution.missing.join(', ')} is not in the host's key store; enter it again in the server's settings`;
    return new McpRuntimeError('SERVER_START_FAILED', message, id, undefined, resolution.reason);
  }

  /** A transport that closes while running is a crash: in-flight calls fail with the server's last words. */
  private watchClose(transport: Transport): void {
    const previous = transport.onclose;
    transport.onclose = () => {
      previous?.();
      // A close while starting is the start failing: start() says why once (in its error state), not as a crash too.
      if (this.state.kind === 'running') {
        const exit = transport instanceof ProcessTransport ? transport.exitInfo : undefined;
        // The transport may have ended it itself (a line it could not frame): that is what happened, not a crash.
        const closedBecause = transport instanceof ProcessTransport ? transport.closedBecause : undefined;
        this.crashed = closedBecause
          ? `server "${this.definition.id}" was disconnected: ${closedBecause}`
          : `server "${this.definition.id}" stopped unexpectedly${exit ? ` (exit code ${exit.code ?? 'none'}, signal ${exit.signal ?? 'none'})` : ''}${this.stderrTail()}`;
        this.deps.log.append('lifecycle', this.crashed);
        this.setState({ kind: 'error', message: this.crashed, at: this.deps.now() });
      }
    };
  }

  callTool(name: string, args: Record<string, unknown>, meta: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const tools = this.toolsClient;
    if (!tools || this.state.kind !== 'running') return Promise.reject(this.notRunning());
    return this.request(name, options, (sdk) => tools.call(name, args, meta, sdk));
  }

  /** One resources request (`what`: its method and uri, said in an error) on the running server, timed and cancelled like a call. */
  resources<T>(what: string, run: (resources: ResourcesClient, sdk: RequestOptions) => Promise<T>, options: CallOptions = {}): Promise<T> {
    const resources = this.resourcesClient;
    if (!resources || this.state.kind !== 'running') return Promise.reject(this.notRunning());
    return this.request(what, options, (sdk) => run(resources, sdk));
  }

  private notRunning(): McpRuntimeError {
    return new McpRuntimeError(this.crashed ? 'SERVER_CRASHED' : 'SERVER_CLOSED', this.crashed ?? `server "${this.definition.id}" is not running`, this.definition.id);
  }

  /** A request in flight: the caller's signal, the timeout, and a failure said as what it is (crash, cancel, too large, timeout), without stack traces. */
  private async request<T>(name: string, options: CallOptions, run: (sdk: RequestOptions) => Promise<T>): Promise<T> {
    this.inFlightCount++;
    // The call's own abort: the caller's signal, and the end of its maximum total time (which the SDK reports without telling the server).
    const abort = new CallAbort();
    const stop = () => abort.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', stop, { once: true });
    if (options.signal?.aborted) stop();
    const scheduler = this.deps.scheduler ?? systemScheduler;
    const startedAt = scheduler.now();
    let deadline: CallDeadline | undefined;
    let answer: Promise<T>;
    try {
      answer = run(this.sdkOptions(options, abort.signal, () => deadline?.restart()));
    } catch (error) {
      answer = Promise.reject(error);
    }
    // The SDK writes the request as it makes it: what follows runs while the server works, not before it is sent (each
    // call waited for it, `npm run bench -- gateway`), and still before anything the server says about the call is read,
    // which takes a later turn. The call's own timeout, which progress restarts and a question to the user pauses, and
    // its maximum total time, which nothing extends, both count from the call's start.
    deadline = new CallDeadline(scheduler, this.callLimits, this.userAsked, (limit) => abort.abort(limit === 'timeout' ? 'timeout' : 'maximum total time reached'), startedAt);
    this.deadlines.add(deadline);
    this.aborts.add(abort);
    try {
      return await answer;
    } catch (error) {
      if (abort.reason instanceof McpRuntimeError) throw abort.reason;
      if (deadline.expired === 'timeout') {
        throw new McpRuntimeError('CALL_TIMEOUT', `call to ${name} on "${this.definition.id}" timed out after ${this.definition.timeoutMs} ms (the server was told to cancel it)`, this.definition.id);
      }
      if (deadline.expired === 'total') throw this.timedOut(name, abort);
      if (this.crashed) throw new McpRuntimeError('SERVER_CRASHED', this.crashed, this.definition.id);
      if (options.signal?.aborted) throw new McpRuntimeError('CALL_ABORTED', `call to ${name} on "${this.definition.id}" was cancelled`, this.definition.id);
      const signIn = await this.signInFailure(error);
      if (signIn) throw signIn;
      if ((error as { data?: { chatos?: unknown } }).data?.chatos === ANSWER_TOO_LARGE) {
        throw new McpRuntimeError('ANSWER_TOO_LARGE', `call to ${name} on "${this.definition.id}" failed: ${(error as Error).message.replace(/^MCP error -?\d+: /, '')}`, this.definition.id);
      }
      if ((error as { code?: number }).code === -32001) throw this.timedOut(name, abort);
      if (error instanceof SdkError && error.code === SdkErrorCode.InputRequiredRoundsExceeded) {
        throw new McpRuntimeError(
          'SERVER_MISBEHAVED',
          `call to ${name} on "${this.definition.id}" ended: the server asked for more input ${MAX_INPUT_ROUNDS} times in a row (input_required), more rounds than a call may take`,
          this.definition.id,
          'the server keeps asking without finishing: tell its author',
        );
      }
      // The server's JSON-RPC error: its code and its words, without its stack trace (docs/rules/gateway.md#server-errors).
      if (error instanceof McpError || error instanceof ProtocolError) throw serverRpcError(error, `call to ${name}`, this.definition.id);
      // On the 2026 wire a failure of the HTTP exchange itself (an answer over the size bound) reaches here as the SDK
      // read it, which names no server: said with the call and the server it was to.
      if (this.spoken?.era === 'modern' && error instanceof Error && !(error instanceof McpRuntimeError)) error.message = `call to ${name} on "${this.definition.id}" failed: ${error.message}`;
      throw error;
    } finally {
      deadline.dispose();
      this.deadlines.delete(deadline);
      this.aborts.delete(abort);
      options.signal?.removeEventListener('abort', stop);
      this.inFlightCount--;
      if (this.inFlightCount === 0 && this.idle.length > 0) for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  /**
   * resources/read of one resource (an MCP App's `ui://` view: docs/rules/mcp-apps.md#the-view), timed,
   * cancelled and said as a call is (request). What may be read, and by whom, is the caller's to check (mcpApps/appView.ts).
   */
  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = this.client;
    if (!client || this.state.kind !== 'running') return Promise.reject(this.notRunning());
    return this.request(`resources/read of ${uri}`, signal ? { signal } : {}, (sdk) => client.readResource({ uri }, sdk));
  }

  /** A call past its maximum total time (reporting progress, polled as a task, or waiting for the user, all along): the server is told to cancel it here, if it was not yet. */
  private timedOut(name: string, abort: CallAbort): McpRuntimeError {
    const id = this.definition.id;
    abort.abort('maximum total time reached');
    return new McpRuntimeError(
      'CALL_TIMEOUT',
      `call to ${name} on "${id}" ran past its maximum total time of ${this.maxTotalMs()} ms, though it kept reporting progress (or its task kept running) or waiting for the user (the server was told to cancel it)`,
      id,
      "raise the server's maxTotalTimeout in mcp.yaml if its calls need longer",
    );
  }

  private maxTotalMs(): number {
    return Math.max(this.definition.timeoutMs, this.definition.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS);
  }

  /** `alive`: a progress report came, which restarts the call's timeout. */
  private sdkOptions(options: CallOptions, signal: AbortSignal, alive: () => void): RequestOptions {
    const onProgress = options.onProgress;
    return {
      signal,
      // The SDK bounds each request by the call's maximum total time too (the host's deadline bounds the call); its own timeout is the host's, which can pause.
      timeout: this.callLimits.totalMs,
      // A handler is always given, so the call carries a progress token: a server that reports progress is alive, and the
      // timeout counts from its last report (docs/rules/mcp-yaml.md#timeouts), up to the server's maximum total time.
      onprogress: (progress) => {
        alive();
        onProgress?.(progress);
      },
    };
  }

  /** Tells the running server the client's roots changed (docs/using/agents.md#workspace-roots); nothing while it is not running. */
  async rootsChanged(): Promise<void> {
    if (this.state.kind !== 'running' || !this.client) return;
    await this.client.sendRootsListChanged();
  }

  /** Waits for in-flight calls (at most `graceMs`), then ends the server and its whole process tree. */
  async close(graceMs = 10_000): Promise<void> {
    if (this.inFlightCount > 0) {
      await Promise.race([new Promise<void>((resolve) => this.idle.push(resolve)), new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref())]);
    }
    const wasCrashed = this.state.kind === 'error';
    this.setState({ kind: 'stopped' });
    this.crashed = wasCrashed ? this.crashed : undefined;
    // A start still under way (a test connection whose time ran out) is ended too, its process with it.
    await this.closeAttempts();
    await this.client?.close().catch(() => {});
    await this.transport?.close().catch(() => {});
    this.client = undefined;
    this.transport = undefined;
  }
}

/** An error's message with the first system code along its cause chain: fetch says only "fetch failed", its cause ECONNREFUSED. */
function withSystemCode(error: Error): string {
  let current: unknown = error;
  for (let depth = 0; current !== null && typeof current === 'object' && depth < 8; depth++) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return error.message.includes(code) ? error.message : `${error.message} (${code})`;
    current = (current as { cause?: unknown }).cause;
  }
  return error.message;
}

/** A start failure the connection did not word itself: the program would not start, or the handshake failed. */
function startFailureReason(error: unknown): StartFailureReason {
  return error instanceof ServerFaultError && error.code === 'SPAWN_FAILED' ? 'SPAWN_FAILED' : 'HANDSHAKE_FAILED';
}
