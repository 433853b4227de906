import type { IncomingMessage } from 'node:http';

/**
 * DNS rebinding and cross-site checks (CVE-2025-49596 was a local MCP
 * inspector that trusted any page able to reach 127.0.0.1). A page on
 * another site can make the browser connect here under a name it controls,
 * or send requests from its own origin: the `Host` must be one of the
 * loopback names with our port, and a present `Origin` must be ours.
 */
export class LoopbackOrigins {
  readonly hosts: readonly string[];
  readonly origins: readonly string[];

  constructor(readonly port: number) {
    this.hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
    this.origins = this.hosts.map((host) => `http://${host}`);
  }

  /** The request's Host when it is one of ours, else undefined (answer 421). */
  hostOf(req: IncomingMessage): string | undefined {
    const host = req.headers.host;
    return host !== undefined && this.hosts.includes(host) ? host : undefined;
  }

  /** True when the request has no Origin, or one of ours (`null` is not ours). */
  originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    return origin === undefined || this.origins.includes(origin);
  }
}
