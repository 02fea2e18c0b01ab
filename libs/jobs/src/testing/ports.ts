import { createServer } from 'node:net';

/**
 * A loopback port nobody listens on now, for a child process to take. A fixed port would collide
 * with another suite's or the kernel's ephemeral client ports on a busy machine; the race left
 * between this close and the child's listen is far narrower.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
