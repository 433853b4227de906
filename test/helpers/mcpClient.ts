import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** Connects the SDK's own client to a stdio server: the reference any server of ours must satisfy. */
export async function connectStdio(command: string, args: string[], env?: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'chatos-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: 'pipe' }));
  return client;
}
