import * as dgram from 'node:dgram';

/**
 * A STUN server on a local UDP port (RFC 5389 Binding only): it counts every
 * packet it gets and answers each Binding request with the address it came
 * from, so a browser that may use it finishes gathering at once (instead of
 * waiting out its retries) and says what it found.
 */
export interface StunServer {
  /** `stun:127.0.0.1:<port>`, as an ICE server url. */
  url: string;
  /** Packets received, of any kind. */
  packets(): number;
  close(): Promise<void>;
}

const MAGIC_COOKIE = 0x2112a442;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const XOR_MAPPED_ADDRESS = 0x0020;

/** The Binding success response to `request` from `from` (an IPv4 address), or undefined when it is no Binding request. */
function bindingResponse(request: Buffer, from: dgram.RemoteInfo): Buffer | undefined {
  if (request.length < 20 || request.readUInt16BE(0) !== BINDING_REQUEST || request.readUInt32BE(4) !== MAGIC_COOKIE || from.family !== 'IPv4') return undefined;
  const response = Buffer.alloc(32);
  response.writeUInt16BE(BINDING_SUCCESS, 0);
  response.writeUInt16BE(12, 2);
  response.writeUInt32BE(MAGIC_COOKIE, 4);
  request.copy(response, 8, 8, 20);
  response.writeUInt16BE(XOR_MAPPED_ADDRESS, 20);
  response.writeUInt16BE(8, 22);
  response.writeUInt8(0x01, 25);
  response.writeUInt16BE(from.port ^ (MAGIC_COOKIE >>> 16), 26);
  const address = from.address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
  response.writeUInt32BE((address ^ MAGIC_COOKIE) >>> 0, 28);
  return response;
}

export async function startStunServer(): Promise<StunServer> {
  const socket = dgram.createSocket('udp4');
  let packets = 0;
  socket.on('message', (message, from) => {
    packets++;
    const response = bindingResponse(message, from);
    if (response) socket.send(response, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    url: `stun:127.0.0.1:${socket.address().port}`,
    packets: () => packets,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
