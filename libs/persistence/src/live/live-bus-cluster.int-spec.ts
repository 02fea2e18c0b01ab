import { createRedisCluster, eventually, type LocalRedisCluster, parseRedisClusterNodes, startRedisCluster } from '@dts/platform';
import type { Cluster } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { LiveBus } from './live-bus';
import type { LiveSignal } from './live-notices';

/*
 * The live bus of two processes on a three-master Redis Cluster started here: notices published
 * through one bus reach the other's subscription wherever in the cluster each connected, and when
 * the node a subscription sits on dies, the bus subscribes on another node and tells its listeners
 * to catch up (resync). In the PostgreSQL + Redis pass of `npm test`.
 */
const redisPass = Boolean(process.env.TEST_REDIS_URL);
const suite = redisPass ? describe : describe.skip;
const TITLE = 'the live bus on a Redis Cluster';

suite(redisPass ? TITLE : `${TITLE} (skipped: needs TEST_REDIS_URL, the Redis pass)`, () => {
  let cluster: LocalRedisCluster;
  const clients: Cluster[] = [];
  const buses: LiveBus[] = [];

  /** A bus as a process makes it: on its own cluster client of the service's options. Each test its own prefix (channel). */
  const newBus = (prefix: string) => {
    const client = createRedisCluster(parseRedisClusterNodes(cluster.setting), { maxRetriesPerRequest: 3 });
    client.on('error', () => undefined);
    clients.push(client);
    // Without Redis the bus uses the database; with it, never.
    const bus = new LiveBus(null as unknown as DataSource, client, '', prefix);
    buses.push(bus);
    return bus;
  };
  /** Ports of the nodes holding a subscription to the channel of `prefix` now. */
  const subscribedNodes = async (prefix: string): Promise<number[]> => {
    const ports: number[] = [];
    for (const { port } of cluster.nodes) {
      const node = cluster.node(port);
      node.on('error', () => undefined);
      try {
        const [, count] = (await node.call('PUBSUB', 'NUMSUB', `${prefix}:live`)) as [string, number];
        if (Number(count) > 0) ports.push(port);
      } catch {
        // a node that is down holds no subscription
      } finally {
        node.disconnect();
      }
    }
    return ports;
  };

  beforeAll(async () => {
    cluster = await startRedisCluster({ password: `live-${randomBytes(6).toString('hex')}` });
  }, 120_000);
  afterAll(async () => {
    for (const bus of buses) await bus.onApplicationShutdown();
    for (const client of clients) client.disconnect();
    await cluster?.stop();
  });

  it('carries notices from one process’s bus to the other’s, and hears its own echo', async () => {
    const prefix = `dts-live-${randomBytes(3).toString('hex')}`;
    const [listening, publishing] = [newBus(prefix), newBus(prefix)];
    const heard: LiveSignal[] = [];
    await listening.listen((s) => heard.push(s));
    await publishing.listen(() => undefined);
    expect(listening.healthy).toBe(true);
    // `heard`: resolves once the publisher's own subscription heard it, so the other has been sent it too.
    await publishing.publish([{ kind: 'command', device: 1, command: 2 }], { heard: true });
    await eventually(() => heard.length > 0, { what: 'the notice on the other bus', timeoutMs: 15_000 });
    expect(heard).toEqual([{ kind: 'command', device: 1, command: 2 }]);
  });

  it('moves a subscription off a node that died, tells its listeners to catch up, and hears what follows', async () => {
    const prefix = `dts-live-${randomBytes(3).toString('hex')}`;
    const [listening, publishing] = [newBus(prefix), newBus(prefix)];
    const heard: LiveSignal[] = [];
    await listening.listen((s) => heard.push(s));
    // The one node holding the listening bus's subscription (the publishing bus does not listen).
    const victim = await subscribedNodes(prefix);
    expect(victim).toHaveLength(1);
    await cluster.killNode(victim[0]!);

    await eventually(() => heard.some((s) => s.kind === 'resync'), { what: 'a resync after the subscription moved', timeoutMs: 30_000 });
    expect(listening.healthy).toBe(true);
    const after = await subscribedNodes(prefix);
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(victim);
    // Publishing goes on through the nodes left (PUBLISH needs no slot): the moved subscription hears it.
    await eventually(
      async () => {
        await publishing.publish([{ kind: 'uplinks', device: 9, newest: '123' }]);
        return heard.some((s) => s.kind === 'uplinks');
      },
      { what: 'a notice after the move', timeoutMs: 30_000 },
    );
  }, 90_000);
});
