/**
 * The page's change feed: Server-Sent Events, one `change` frame each time what Slack or the
 * emulator shows changed. The page then asks for the state again.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type ChangeSource = 'slack' | 'emulator';

export class ChangeFeed {
  readonly #clients = new Set<ServerResponse>();
  #seq = 0;

  broadcast(what: ChangeSource): void {
    this.#seq += 1;
    const frame = `event: change\ndata: ${JSON.stringify({ seq: this.#seq, what })}\n\n`;
    for (const res of this.#clients) res.write(frame);
  }

  /** Keeps the response open as an event stream until the page goes. */
  open(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(`retry: 1000\nevent: change\ndata: ${JSON.stringify({ seq: this.#seq, what: 'hello' })}\n\n`);
    this.#clients.add(res);
    req.on('close', () => this.#clients.delete(res));
  }

  close(): void {
    for (const res of this.#clients) res.end();
    this.#clients.clear();
  }
}
