import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapter, runScenario as runSuiteScenario, suiteCli, type Check } from './suiteRun.js';

/**
 * The official MCP client conformance suite (@modelcontextprotocol/conformance
 * 0.1.16) against the host's own connection code. The suite's CLI starts a
 * scenario server and runs scripts/conformanceClient.ts (built by `npm test`)
 * with the server's URL; the adapter connects through ServerConnection,
 * exactly as an mcp.yaml `streamable_http` server is connected (suiteRun.ts).
 * These servers speak 2025-11-25 and older: the host asks each whether it
 * speaks 2026-07-28 first, and speaks `initialize` to it when it does not.
 */

const cli = suiteCli('@modelcontextprotocol/conformance');
const runScenario = (scenario: string) => runSuiteScenario(cli, scenario);

/** What every sign-in that gets a token shows: PKCE S256, a token, and the token sent to the server. */
const SIGNED_IN = ['authorization-request', 'pkce-s256-method-used', 'pkce-verifier-matches-challenge', 'token-request', 'valid-bearer-token'];

/**
 * The checks each scenario must report as SUCCESS (besides there being no
 * FAILURE or WARNING at all). The auth scenarios are every stable one of
 * 0.1.16 (`list --client`: spec 2025-11-25, and the 2025-03-26 fallbacks),
 * plus the draft resource-mismatch, which the host refuses as the issue asks.
 */
const REQUIRED: Record<string, string[]> = {
  initialize: ['mcp-client-initialization'],
  tools_call: ['tool-add-numbers'],
  'sse-retry': ['client-sse-graceful-reconnect', 'client-sse-retry-timing', 'client-sse-last-event-id'],
  // The host's elicitation feature; the adapter's user accepts each form as first shown (its defaults).
  'elicitation-sep1034-client-defaults': [
    'client-elicitation-sep1034-string-default',
    'client-elicitation-sep1034-integer-default',
    'client-elicitation-sep1034-number-default',
    'client-elicitation-sep1034-enum-default',
    'client-elicitation-sep1034-boolean-default',
  ],
  'auth/metadata-default': [...SIGNED_IN, 'prm-pathbased-requested', 'authorization-server-metadata', 'client-registration'],
  'auth/metadata-var1': [...SIGNED_IN, 'authorization-server-metadata'],
  'auth/metadata-var2': [...SIGNED_IN, 'authorization-server-metadata'],
  'auth/metadata-var3': [...SIGNED_IN, 'authorization-server-metadata'],
  'auth/basic-cimd': [...SIGNED_IN, 'cimd-client-id-used'],
  'auth/scope-from-www-authenticate': [...SIGNED_IN, 'scope-from-www-authenticate'],
  'auth/scope-from-scopes-supported': [...SIGNED_IN, 'scope-from-scopes-supported'],
  'auth/scope-omitted-when-undefined': [...SIGNED_IN, 'scope-omitted-when-undefined'],
  'auth/scope-step-up': [...SIGNED_IN, 'scope-step-up-initial', 'scope-step-up-escalation'],
  'auth/scope-retry-limit': ['scope-retry-limit'],
  'auth/token-endpoint-auth-basic': [...SIGNED_IN, 'token-endpoint-auth-method', 'resource-parameter-in-authorization', 'resource-parameter-in-token'],
  'auth/token-endpoint-auth-post': [...SIGNED_IN, 'token-endpoint-auth-method'],
  'auth/token-endpoint-auth-none': [...SIGNED_IN, 'token-endpoint-auth-method'],
  'auth/pre-registration': [...SIGNED_IN, 'pre-registration-auth'],
  'auth/2025-03-26-oauth-metadata-backcompat': [...SIGNED_IN, 'authorization-server-metadata'],
  'auth/2025-03-26-oauth-endpoint-fallback': ['authorization-request', 'token-request', 'valid-bearer-token'],
  'auth/resource-mismatch': ['resource-mismatch-rejected'],
};

/**
 * sse-retry reports a reconnection up to 200 ms past the server's `retry` as
 * a WARNING ("acceptable but may indicate network delays"), which fails the
 * suite's overall verdict. On a loaded CI machine a timer can fire that late,
 * so that one warning is accepted; reconnecting early or very late (past
 * twice the retry) is a FAILURE and still fails the test.
 */
const tolerated = (check: Check) => check.id === 'client-sse-retry-timing' && check.status === 'WARNING' && check.details?.slightlyLate === true && check.details?.tooEarly === false;

describe('MCP client conformance (official suite, host connection code)', () => {
  it('has the suite and the built adapter', () => {
    expect(fs.existsSync(cli), `${cli} is missing: run npm ci`).toBe(true);
    expect(fs.existsSync(adapter), `${adapter} is missing: run "npm run build" (npm test does)`).toBe(true);
  });

  for (const [scenario, required] of Object.entries(REQUIRED)) {
    it(`passes the ${scenario} scenario`, async () => {
      const run = await runScenario(scenario);
      const explain = `conformance output:\n${run.stderr}`;
      const bad = run.checks.filter((c) => (c.status === 'FAILURE' || c.status === 'WARNING') && !tolerated(c));
      expect(
        bad.map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ''}`),
        explain,
      ).toEqual([]);
      for (const id of required) {
        const check = run.checks.find((c) => c.id === id);
        expect(check?.status === 'SUCCESS' || (check !== undefined && tolerated(check)), `${id}: ${check?.status ?? 'missing'}\n${explain}`).toBe(true);
      }
      if (!run.checks.some(tolerated)) {
        expect(run.stderr, explain).toContain('OVERALL: PASSED');
        expect(run.code, explain).toBe(0);
      }
    });
  }
});
