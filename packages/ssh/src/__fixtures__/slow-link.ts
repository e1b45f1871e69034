import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** A TCP link to a server that delays everything it carries, and can go dark. */
export interface SlowLink {
  readonly host: string;
  readonly port: number;
  /**
   * Stops carrying the connections open now, both ways, as a link that went dark: what they send is dropped, and
   * they end only when an end gives up. Connections made later are carried as before.
   */
  goDark(): void;
  close(): Promise<void>;
}

/** Carries `from`'s bytes to `to` after `delayMs`, in order, unless the pair went dark. */
function carry(from: Socket, to: Socket, delayMs: number, dark: () => boolean): void {
  from.on('data', (chunk: Buffer) => {
    if (dark()) return;
    // Timers of one duration fire in the order they were set: the bytes keep their order.
    setTimeout(() => {
      if (!dark() && !to.destroyed) to.write(chunk);
    }, delayMs);
  });
  from.on('end', () => setTimeout(() => to.end(), delayMs));
  from.on('close', () => (dark() ? to.destroy() : setTimeout(() => to.destroy(), delayMs)));
  from.on('error', () => to.destroy());
}

/**
 * A slow network between a client and `target` (127.0.0.1): every byte arrives `delayMs` after it was sent, each
 * way. A wrapper around the real link, so the SSH client, its keepalives and the server are all real.
 */
export async function slowLink(target: { host: string; port: number }, delayMs: number): Promise<SlowLink> {
  const open = new Set<{ dark: boolean; sockets: Socket[] }>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    const pair = { dark: false, sockets: [client, upstream] };
    open.add(pair);
    const dark = () => pair.dark;
    carry(client, upstream, delayMs, dark);
    carry(upstream, client, delayMs, dark);
    client.on('close', () => open.delete(pair));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    goDark() {
      for (const pair of open) pair.dark = true;
    },
    async close() {
      for (const pair of open) for (const socket of pair.sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
