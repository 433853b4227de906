import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/tempDir.js';
import { adapter, runScenario, suiteCli } from './suiteRun.js';

/**
 * The pre-release of the official MCP client conformance suite for protocol
 * 2026-07-28 (@modelcontextprotocol/conformance 0.2.0-alpha.12, installed
 * as the npm alias `conformance-next`), every client scenario it lists at
 * `--spec-version 2026-07-28`, against the host's own connection code
 * (suiteRun.ts). These scenario servers answer `server/discover`, so the host
 * speaks to them statelessly (docs/rules/mcp-yaml.md#protocol-eras): `_meta`
 * and headers on every request, no session, `input_required` rounds answered
 * through the host's elicitation service, and the 2026 OAuth additions
 * (application_type, RFC 9207 `iss`). The 2025-era servers of the stable
 * suite are conformance.test.ts.
 */

const cli = suiteCli('conformance-next');
const SPEC = ['--spec-version', '2026-07-28'];

/**
 * Every client scenario of 0.2.0-alpha.12 at 2026-07-28 (`list --client --spec-version 2026-07-28`).
 * All pass; none is left out (docs/rules/mcp-yaml.md#protocol-eras lists what the host does for each).
 */
const SCENARIOS = [
  'tools_call',
  'request-metadata',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  'json-schema-2020-12-preservation',
];

describe('MCP 2026-07-28 client conformance (official pre-release suite, host connection code)', () => {
  it('has the suite and the built adapter, and asserts every scenario the suite lists', () => {
    expect(fs.existsSync(cli), `${cli} is missing: run npm ci`).toBe(true);
    expect(fs.existsSync(adapter), `${adapter} is missing: run "npm run build" (npm test does)`).toBe(true);
    const listed = execFileSync(process.execPath, [cli, 'list', '--client', ...SPEC], { cwd: repoRoot, encoding: 'utf8' })
      .split('\n')
      .flatMap((line) => /^\s+- (\S+)/.exec(line)?.[1] ?? []);
    expect(listed.sort()).toEqual([...SCENARIOS].sort());
  });

  for (const scenario of SCENARIOS) {
    it(`passes the ${scenario} scenario`, async () => {
      const run = await runScenario(cli, scenario, SPEC);
      const explain = `conformance output:\n${run.stderr}`;
      const bad = run.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      expect(
        bad.map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ''}`),
        explain,
      ).toEqual([]);
      expect(
        run.checks.some((c) => c.status === 'SUCCESS'),
        explain,
      ).toBe(true);
      expect(run.stderr, explain).toContain('OVERALL: PASSED');
      expect(run.code, explain).toBe(0);
    });
  }
});
