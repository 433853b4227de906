import * as crypto from 'node:crypto';
import * as https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as tls from 'node:tls';
import forge from 'node-forge';

/**
 * A real HTTPS server on 127.0.0.1 for download tests: its certificate is made here (a self-signed one for the IP
 * 127.0.0.1) and added to this process's trusted certificates, so the host's own fetch (in-process CLI included) talks
 * to it over real TLS, checking it as it would any site's.
 */

export interface HttpsServer {
  origin: string;
  close(): Promise<void>;
}

function loopbackCertificate(): { cert: string; key: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  // A name and serial of its own: every server's certificate joins the same trusted set (files share a worker), and
  // OpenSSL finds a certificate's issuer there by name. Two named alike, it may check the server's against the other
  // one's key and refuse it ("fetch failed" after another file's HTTPS server).
  const unique = crypto.randomBytes(8).toString('hex');
  cert.serialNumber = `01${unique}`;
  cert.validity.notBefore = new Date('2026-01-01T00:00:00Z');
  cert.validity.notAfter = new Date('2036-01-01T00:00:00Z');
  const name = [{ name: 'commonName', value: `ChatOS test server ${unique}` }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([{ name: 'basicConstraints', cA: true }, { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }, { name: 'subjectKeyIdentifier' }]);
  cert.sign(forge.pki.privateKeyFromPem(key), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key };
}

/** Starts the server with `handler`; its certificate is trusted by this process from now on. */
export async function startHttpsServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<HttpsServer> {
  const { cert, key } = loopbackCertificate();
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), cert]);
  const server = https.createServer({ cert, key }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
