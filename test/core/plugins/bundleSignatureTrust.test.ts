import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { signMcpbFile } from '@anthropic-ai/mcpb';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { SignatureRefused, verifyBundleSignature } from '../../../src/core/plugins/bundles/bundleSignature.js';
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

/** A bundle signed by mcpb's `sign` with `signer`'s key, its block carrying `intermediates` (PEM) after the signer's certificate. */
async function signedWith(signer: Issued, intermediates: readonly string[] = []): Promise<Buffer> {
  const file = await packBundle();
  const dir = tempDir('mcpb-trust-');
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  fs.writeFileSync(certFile, forge.pki.certificateToPem(signer.cert));
  fs.writeFileSync(keyFile, forge.pki.privateKeyToPem(signer.key));
  const chain = intermediates.map((pem, i) => {
    const at = path.join(dir, `intermediate-${i}.pem`);
    fs.writeFileSync(at, pem);
    return at;
  });
  signMcpbFile(file, certFile, keyFile, chain);
  return fs.readFileSync(file);
}

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof SignatureRefused) return error.message;
    throw error;
  }
  return 'not refused';
};

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

describe('a signature block is bounded before it is parsed', () => {
  const authority = certificate('Test Code CA', { ca: true, from: '2026-01-01', to: '2036-01-01' });
  const trust = { roots: [forge.pki.certificateToPem(authority.cert)], now: NOW };
  const publisher = certificate('Acme Tools', { issuer: authority, usage: CODE_SIGNING, from: '2026-01-01', to: '2027-01-01' });
  const authorityPem = forge.pki.certificateToPem(authority.cert);

  it('in the number of certificates: a signer and nine more are read, not eleven in all', async () => {
    expect(verifyBundleSignature(await signedWith(publisher, Array(9).fill(authorityPem)), trust).signature.status).toBe('signed');
    const crowded = await signedWith(publisher, Array(10).fill(authorityPem));
    expect(refusal(() => verifyBundleSignature(crowded, trust))).toBe('the signature carries 11 certificates; at most 10 are read');
  });

  it('in bytes: a block past 64 KiB is refused without reading its certificates', async () => {
    // Each copy of the authority is some 800 bytes of DER: 120 of them pass the byte bound before the count is looked at.
    const huge = await signedWith(publisher, Array(120).fill(authorityPem));
    expect(refusal(() => verifyBundleSignature(huge, trust))).toMatch(/^the signature is \d+ bytes; at most 65536 are read$/);
  });
});
