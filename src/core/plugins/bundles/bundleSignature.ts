import * as crypto from 'node:crypto';
import * as tls from 'node:tls';
import type { BundleSignature } from '../../../shared/bundles.js';
import { childAt, childrenOf, DerError, readDer, type DerElement } from './derReader.js';

/**
 * The signature `mcpb sign` appends to a bundle: `MCPB_SIG_V1`, a 4-byte
 * little-endian length, a detached PKCS#7 (DER) over every byte before the
 * block, `MCPB_SIG_END`. `@anthropic-ai/mcpb`'s own `verifyMcpbFile` cannot
 * serve here: node-forge does not implement PKCS#7 verification, so it
 * answers "unsigned" for every file, a tampered one too. This checks the
 * signature with node:crypto, and the signer against the CA certificates
 * Node trusts.
 */

const HEADER = Buffer.from('MCPB_SIG_V1');
/**
 * Bounds on a signature block, checked before any certificate is parsed: a signer's certificate and a few
 * intermediates take a few KiB; a hostile block of thousands would keep the host busy parsing and verifying them.
 */
export const MAX_SIGNATURE_BYTES = 64 * 1024;
export const MAX_CERTIFICATES = 10;
const FOOTER = Buffer.from('MCPB_SIG_END');

const OID = {
  signedData: Buffer.from('06092a864886f70d010702', 'hex'),
  messageDigest: Buffer.from('06092a864886f70d010904', 'hex'),
  sha256: Buffer.from('0609608648016503040201', 'hex'),
};

const SEQUENCE = 0x30;
const SET = 0x31;
const INTEGER = 0x02;
const OCTETS = 0x04;
const CONTEXT_0 = 0xa0;

/** Who signed a bundle, as the install shows it. `unknown-signer`: the signature is sound but no CA Node trusts vouches for its certificate. */

/** A signature block that is there but does not hold: the bundle is refused. */
export class SignatureRefused extends Error {}

/** The bytes the signature covers, and the signature, if the file ends with a block. */
export function splitSignature(file: Buffer): { content: Buffer; pkcs7?: Buffer } {
  if (file.length < FOOTER.length || !file.subarray(file.length - FOOTER.length).equals(FOOTER)) return { content: file };
  const start = file.lastIndexOf(HEADER, file.length - FOOTER.length - 1);
  if (start < 0) throw new SignatureRefused('the file ends with MCPB_SIG_END but has no MCPB_SIG_V1 before it');
  const lengthAt = start + HEADER.length;
  const length = lengthAt + 4 <= file.length ? file.readUInt32LE(lengthAt) : -1;
  if (lengthAt + 4 + length !== file.length - FOOTER.length) throw new SignatureRefused('the signature block length does not match its content');
  if (length > MAX_SIGNATURE_BYTES) throw new SignatureRefused(`the signature is ${length} bytes; at most ${MAX_SIGNATURE_BYTES} are read`);
  return { content: file.subarray(0, start), pkcs7: file.subarray(lengthAt + 4, lengthAt + 4 + length) };
}

const commonName = (name: string) => /(?:^|\n)CN=([^\n]*)/.exec(name)?.[1] ?? name.replace(/\n/g, ', ');

const hexOfInteger = (integer: DerElement) =>
  integer.content
    .toString('hex')
    .replace(/^(00)+/, '')
    .toUpperCase();

/** Whom a signature may be vouched for by: the authorities trusted (PEM) and the time it is judged at. */
export interface SignatureTrust {
  roots: readonly string[];
  now: number;
}

/** The extended key usage of a certificate made for signing code (RFC 5280 4.2.1.12). */
const CODE_SIGNING = '1.3.6.1.5.5.7.3.3';

const validAt = (cert: crypto.X509Certificate, now: number) => now >= Date.parse(cert.validFrom) && now <= Date.parse(cert.validTo);

/** Each set of trusted roots parsed once (Node's ~150 roots on every check cost more than the check itself). */
const parsedRootSets = new WeakMap<readonly string[], crypto.X509Certificate[]>();

function parsedRoots(roots: readonly string[]): crypto.X509Certificate[] {
  let parsed = parsedRootSets.get(roots);
  if (!parsed) parsedRootSets.set(roots, (parsed = roots.map((pem) => new crypto.X509Certificate(pem))));
  return parsed;
}

/**
 * Does a chain from `leaf` through `intermediates` reach a trusted authority, as a signer of code? The leaf
 * must be made for signing code (a web server's certificate, which anyone gets for a domain, is not), every
 * certificate valid now, and every issuer on the way a CA.
 */
function chainsToTrustedRoot(leaf: crypto.X509Certificate, intermediates: crypto.X509Certificate[], trust: SignatureTrust): boolean {
  if (!leaf.keyUsage?.includes(CODE_SIGNING) || !validAt(leaf, trust.now)) return false;
  const roots = parsedRoots(trust.roots).filter((root) => root.ca && validAt(root, trust.now));
  let current = leaf;
  for (let depth = 0; depth < 8; depth++) {
    if (roots.some((root) => current.checkIssued(root) && current.verify(root.publicKey))) return true;
    const next = intermediates.find((cert) => cert !== current && cert.ca && validAt(cert, trust.now) && current.checkIssued(cert) && current.verify(cert.publicKey));
    if (!next) return false;
    current = next;
  }
  return false;
}

/** The attribute `oid`'s single value among the signer's authenticated attributes. */
function attributeValue(attributes: DerElement, oid: Buffer): DerElement | undefined {
  for (const attribute of childrenOf(attributes)) {
    const [type, values] = childrenOf(attribute);
    if (type?.bytes.equals(oid) && values?.tag === SET) return childrenOf(values)[0];
  }
  return undefined;
}

function checkPkcs7(content: Buffer, pkcs7: Buffer, trust: SignatureTrust): BundleSignature {
  const info = readDer(pkcs7);
  if (info.tag !== SEQUENCE || !childAt(info, 0, 0x06, 'content type').bytes.equals(OID.signedData)) throw new SignatureRefused('the signature is not PKCS#7 signed data');
  const signedData = childAt(childAt(info, 1, CONTEXT_0, 'signed data'), 0, SEQUENCE, 'signed data');
  const parts = childrenOf(signedData);
  const certificates = parts.find((p) => p.tag === CONTEXT_0);
  const signerInfos = parts.at(-1);
  if (!certificates || signerInfos?.tag !== SET) throw new SignatureRefused('the signature carries no certificate or no signer');
  const signers = childrenOf(signerInfos);
  if (signers.length !== 1) throw new SignatureRefused(`the signature has ${signers.length} signers; a bundle has one`);
  const signer = signers[0]!;
  const serial = hexOfInteger(childAt(childAt(signer, 1, SEQUENCE, 'issuer and serial'), 1, INTEGER, 'serial number'));
  if (!childAt(signer, 2, SEQUENCE, 'digest algorithm').content.subarray(0, OID.sha256.length).equals(OID.sha256)) throw new SignatureRefused('the signature does not use SHA-256');
  const attributes = childAt(signer, 3, CONTEXT_0, 'signed attributes');
  const signature = childrenOf(signer).find((p) => p.tag === OCTETS);
  if (!signature) throw new SignatureRefused('the signer holds no signature value');
  const carried = childrenOf(certificates);
  if (carried.length > MAX_CERTIFICATES) throw new SignatureRefused(`the signature carries ${carried.length} certificates; at most ${MAX_CERTIFICATES} are read`);
  const certs = carried.map((c) => new crypto.X509Certificate(c.bytes));
  const cert = certs.find((c) => c.serialNumber.replace(/^(00)+/, '').toUpperCase() === serial);
  if (!cert) throw new SignatureRefused("the signer's certificate is not in the signature");
  const digest = attributeValue(attributes, OID.messageDigest);
  if (digest?.tag !== OCTETS || !digest.content.equals(crypto.createHash('sha256').update(content).digest())) {
    throw new SignatureRefused('the bundle does not match its signature: it was changed after it was signed');
  }
  // What was signed is the attributes as a SET (RFC 5652 §5.4): the same bytes with the universal tag.
  const signed = Buffer.concat([Buffer.from([SET]), attributes.bytes.subarray(1)]);
  if (!crypto.verify('sha256', signed, cert.publicKey, signature.content)) throw new SignatureRefused("the signature does not verify with its certificate's key");
  const selfSigned = cert.checkIssued(cert) && cert.verify(cert.publicKey);
  const status = chainsToTrustedRoot(cert, certs, trust) ? 'signed' : selfSigned ? 'self-signed' : 'unknown-signer';
  return {
    status,
    publisher: commonName(cert.subject),
    issuer: commonName(cert.issuer),
    validFrom: new Date(cert.validFrom).toISOString(),
    validTo: new Date(cert.validTo).toISOString(),
    fingerprint: cert.fingerprint256,
  };
}

/** Who signed `file` (its bytes), and the bytes that are the bundle; a signature that does not hold throws SignatureRefused. */
export function verifyBundleSignature(file: Buffer, trust: SignatureTrust = { roots: tls.rootCertificates, now: Date.now() }): { content: Buffer; signature: BundleSignature } {
  const { content, pkcs7 } = splitSignature(file);
  if (!pkcs7) return { content, signature: { status: 'unsigned' } };
  try {
    return { content, signature: checkPkcs7(content, pkcs7, trust) };
  } catch (error) {
    if (error instanceof SignatureRefused) throw error;
    if (error instanceof DerError || error instanceof Error) throw new SignatureRefused(`the signature cannot be read: ${error.message}`);
    throw error;
  }
}
