import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a local server got it: the request, its whole body, where to answer, and a way to never answer. */
export type LocalHandler = (request: IncomingMessage, body: Buffer, response: ServerResponse, hang: () => void) => void;

/**
 * An HTTP server on 127.0.0.1 that the server under test talks to (a webhook receiver, a captcha
 * provider): `handle` gets each request once its body has arrived. Closing it cuts every connection,
 * answers left hanging included.
 */
export async function startLocalHttp(handle: LocalHandler): Promise<{ base: string; close(): Promise<void> }> {
  const hanging = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => handle(request, Buffer.concat(chunks), response, () => hanging.add(response)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
