import { connect, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface RedisCommandTripwire {
  /** `redis://127.0.0.1:{port}`: give it to the process under test instead of the real Redis. */
  readonly url: string;
  /** Resolves when a command matching the wire's pattern arrived (and was held back, never sent on). */
  readonly tripped: Promise<void>;
  /** From now on everything is passed through (for a process started after the trip). */
  disarm(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of a Redis server that holds back the first chunk a client sends whose
 * RESP matches `pattern` (e.g. an HSET of a state key): the command is never sent, so a process
 * killed once the wire tripped is killed exactly before that command, and after every command
 * it sent (and awaited) before it. The tail of the previous chunk is kept so a command split
 * over two chunks still matches.
 */
export async function startRedisCommandTripwire(target: { host: string; port: number }, pattern: RegExp): Promise<RedisCommandTripwire> {
  let armed = true;
  let trip: () => void = () => undefined;
  const tripped = new Promise<void>((resolve) => (trip = resolve));
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let tail = "";
    let held = false;
    client.on("data", (chunk: Buffer) => {
      if (held) return;
      const text = tail + chunk.toString("latin1");
      tail = text.slice(-512);
      if (armed && pattern.test(text)) {
        held = true;
        armed = false;
        trip();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    tripped,
    disarm: () => {
      armed = false;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
