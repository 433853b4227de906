import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { signMcpbFile } from '@anthropic-ai/mcpb';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { verifyBundleSignature } from '../../../src/core/plugins/bundles/bundleSignature.js';
import { packBundle } from '../../helpers/mcpbBundles.js';
import { tempDir } from '../../helpers/tempDir.js';

/**
 * Who a bundle's signature is vouched for by (docs/using/bundles.md): "signed" only for a certificate made for
 * signing code, valid now, issued by a trusted authority through CAs. A web server's certificate (anyone gets
 * one for a domain) or an expired one is not vouched for, however sound the signature. The authority here is a
 * test CA given as the trusted roots; the bundles are packed and signed with mcpb's own tools.
 */

const NOW = Date.parse('2026-12-01T00:00:00Z');
const SERVER_AUTH = { name: 'extKeyUsage', serverAuth: true };
const CODE_SIGNING = { name: 'extKeyUsage', codeSigning: true };

interface Issued {
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

function certificate(commonName: string, options: { issuer?: Issued; ca?: boolean; usage?: object; from: string; to: string }): Issued {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = crypto
    .randomBytes(8)
    .toString('hex')
    .replace(/^[89a-f]/, '1');
  cert.validity.notBefore = new Date(options.from);
  cert.validity.notAfter = new Date(options.to);
  cert.setSubject([{ name: 'commonName', value: commonName }]);
  cert.setIssuer((options.issuer?.cert ?? cert).subject.attributes);
  cert.setExtensions([{ name: 'basicConstraints', cA: options.ca ?? false }, ...(options.usage ? [options.usage] : [])]);
  cert.sign(options.issuer?.key ?? keys.privateKey, forge.md.sha256.create());
  return { cert, key: keys.privateKey };
}

async function signedWith(signer: Issued): Promise<Buffer> {
  const file = await packBundle();
  const dir = tempDir('mcpb-trust-');
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  fs.writeFileSync(certFile, forge.pki.certificateToPem(signer.cert));
  fs.writeFileSync(keyFile, forge.pki.privateKeyToPem(signer.key));
  signMcpbFile(file, certFile, keyFile);
  return fs.readFileSync(file);
}

describe('a bundle signature vouched for by an authority', () => {
  const authority = certificate('Test Code CA', { ca: true, from: '2026-01-01', to: '2036-01-01' });
  const trust = { roots: [forge.pki.certificateToPem(authority.cert)], now: NOW };

  it('is "signed" for a code-signing certificate the authority issued, valid now', async () => {
    const publisher = certificate('Acme Tools', { issuer: authority, usage: CODE_SIGNING, from: '2026-01-01', to: '2027-01-01' });
    expect(verifyBundleSignature(await signedWith(publisher), trust).signature).toMatchObject({ status: 'signed', publisher: 'Acme Tools', issuer: 'Test Code CA' });
  });

  it("is not for a web server's certificate of the same authority, nor for an expired code-signing one", async () => {
    const website = certificate('github-mcp.dev', { issuer: authority, usage: SERVER_AUTH, from: '2026-01-01', to: '2027-01-01' });
    expect(verifyBundleSignature(await signedWith(website), trust).signature.status).toBe('unknown-signer');
    const expired = certificate('Acme Tools', { issuer: authority, usage: CODE_SIGNING, from: '2026-01-01', to: '2026-06-01' });
    expect(verifyBundleSignature(await signedWith(expired), trust).signature.status).toBe('unknown-signer');
  });
});
