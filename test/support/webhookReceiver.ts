// A local webhook receiver for tests: each delivery is verified with the `standardwebhooks`
// package against the secrets given, recorded, and answered with the next scripted status (then
// `status`, 200 unless set).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Delivery {
  id: string;
  signature: string;
  body: { id: string; type: string; data: any };
  /** the secrets the signature verifies with */
  verifiedWith: string[];
  /** what the receiver answered */
  status: number;
}

export class WebhookReceiver {
  readonly received: Delivery[] = [];
  script: number[] = [];
  status = 200;
  secrets: string[] = [];
  url = '';
  private server!: Server;

  async start(): Promise<this> {
    this.server = createServer(async (req, res) => {
      const body = await text(req);
      const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
      const verifiedWith = this.secrets.filter((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const status = this.script.shift() ?? this.status;
      this.received.push({ id: headers['webhook-id'], signature: headers['webhook-signature'], body: JSON.parse(body), verifiedWith, status });
      res.writeHead(status, status === 503 ? { 'retry-after': '0' } : {}).end(status === 200 ? 'ok' : 'not now');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  close() {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }
}

function text(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => resolve(data));
  });
}
