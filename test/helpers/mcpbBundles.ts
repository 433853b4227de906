import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { packExtension, signMcpbFile } from '@anthropic-ai/mcpb';
import forge from 'node-forge';
import { tempDir } from './tempDir.js';

/**
 * Real MCP Bundles for tests, built by `@anthropic-ai/mcpb`'s own `pack`
 * (and `sign`): a node server that answers with what it was started with,
 * and `user_config` with a sensitive key.
 */

/** The bundle's server: reports its argv and its WEATHER_KEY, so a test sees what the install gave it. */
const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
const server = new McpServer({ name: 'weather', version: '1.0.0' });
server.registerTool('forecast', { description: 'the forecast, and what the server was started with' }, async () => ({
  content: [{ type: 'text', text: JSON.stringify({ sky: 'clear', units: process.argv[2], key: process.env.WEATHER_KEY ?? null }) }],
}));
await server.connect(new StdioServerTransport());
`;

export function weatherManifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    manifest_version: '0.3',
    name: 'weather',
    display_name: 'Weather',
    version: '1.0.0',
    description: 'Forecasts from a test bundle',
    author: { name: 'Test Author', email: 'author@example.com' },
    server: {
      type: 'node',
      entry_point: 'server/index.mjs',
      mcp_config: { command: 'node', args: ['${__dirname}/server/index.mjs', '${user_config.units}'], env: { WEATHER_KEY: '${user_config.api_key}' } },
    },
    tools: [{ name: 'forecast', description: 'the forecast' }],
    user_config: {
      units: { type: 'string', title: 'Units', description: 'metric or imperial', default: 'metric' },
      api_key: { type: 'string', title: 'API key', description: 'your weather key', sensitive: true, required: true },
    },
    ...overrides,
  };
}

/** The bundle folder mcpb packs: manifest.json and the server. */
export function writeBundleFolder(manifest: Record<string, unknown> = weatherManifest()): string {
  const dir = tempDir('mcpb-src-');
  fs.mkdirSync(path.join(dir, 'server'));
  fs.writeFileSync(path.join(dir, 'server', 'index.mjs'), SERVER);
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

/** `mcpb pack` of a folder, into `<tmp>/<name>.mcpb`. */
export async function packBundle(manifest: Record<string, unknown> = weatherManifest(), name = 'weather'): Promise<string> {
  const output = path.join(tempDir('mcpb-out-'), `${name}.mcpb`);
  if (!(await packExtension({ extensionPath: writeBundleFolder(manifest), outputPath: output, silent: true }))) throw new Error('mcpb pack failed');
  return output;
}

/**
 * A self-signed code-signing certificate for `commonName` (key made by node:crypto; the certificate by node-forge, as
 * mcpb signs with it). `claimedIssuer`: the issuer name written into it instead of its own, as anyone can.
 */
export function selfSignedCertificate(commonName: string, claimedIssuer?: string): { certFile: string; keyFile: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date('2026-01-01T00:00:00Z');
  cert.validity.notAfter = new Date('2036-01-01T00:00:00Z');
  const name = [{ name: 'commonName', value: commonName }];
  cert.setSubject(name);
  cert.setIssuer(claimedIssuer === undefined ? name : [{ name: 'commonName', value: claimedIssuer }]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  const dir = tempDir('mcpb-cert-');
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  fs.writeFileSync(certFile, forge.pki.certificateToPem(cert));
  fs.writeFileSync(keyFile, keyPem);
  return { certFile, keyFile };
}

/** `mcpb sign` of a packed bundle, in place (`claimedIssuer`: the issuer the certificate names, made up). */
export function signBundle(file: string, commonName: string, claimedIssuer?: string): void {
  const { certFile, keyFile } = selfSignedCertificate(commonName, claimedIssuer);
  signMcpbFile(file, certFile, keyFile);
}

/** A zip written by Python's zipfile, for archives mcpb would never pack: a link, a ".." path, a bomb, or a manifest it refuses (`plain`). */
export function hostileZip(file: string, kind: 'plain' | 'traversal' | 'symlink' | 'bomb', manifest = weatherManifest()): void {
  const script = `
import json, sys, zipfile
kind, file, manifest = sys.argv[1], sys.argv[2], sys.stdin.read()
with zipfile.ZipFile(file, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('manifest.json', manifest)
    z.writestr('server/index.mjs', '')
    if kind == 'traversal':
        z.writestr('../../escaped.txt', 'out')
    elif kind == 'symlink':
        info = zipfile.ZipInfo('server/link')
        info.create_system = 3
        info.external_attr = (0o120777 << 16)
        z.writestr(info, '/etc/passwd')
    elif kind == 'bomb':
        # 210 MiB of zeros, about 200 KiB packed: past the 200 MiB limit once unpacked.
        with z.open('server/zeros.bin', 'w') as out:
            chunk = bytes(1024 * 1024)
            for _ in range(210):
                out.write(chunk)
`;
  const result = spawnSync('python3', ['-c', script, kind, file], { input: JSON.stringify(manifest), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`making ${file} failed: ${result.stderr}`);
}
