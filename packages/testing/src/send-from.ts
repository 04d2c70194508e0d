import { request } from 'node:http';

export interface AnswerFrom {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: any;
}

/**
 * One request over a real socket from a source address of its own (`127.0.0.2`, `::1`…: every
 * 127/8 address is this machine's), so a server sees each client as a different address.
 */
export function sendFrom(
  from: string,
  to: { host: string; port: number },
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<AnswerFrom> {
  return new Promise((resolve, reject) => {
    const req = request({ host: to.host, port: to.port, method, path, headers, localAddress: from, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, json: body ? JSON.parse(body) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}
