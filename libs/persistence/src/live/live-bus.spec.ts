import { type AppConfig, createRedisClient, eventually } from '@dts/platform';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import type { DataSource } from 'typeorm';
import { LiveBus } from './live-bus';
import { liveEchoOf, type LiveNotice, packLiveNotices, unpackLiveNotices } from './live-notices';

describe('live notices on the wire', () => {
  it('round-trips uplink, command, alert, image, credential and integration notices', () => {
    const notices: LiveNotice[] = [
      { kind: 'uplinks', device: 7, newest: '9007199254740993' },
      { kind: 'command', device: 7, command: 42 },
      { kind: 'alert', device: 7, alert: '12' },
      { kind: 'image', device: 7, image: 5 },
      { kind: 'credentials', account: 3 },
      { kind: 'integration', integration: 9 },
    ];
    const messages = packLiveNotices(notices);
    expect(messages).toHaveLength(1);
    expect(messages.flatMap(unpackLiveNotices)).toEqual(notices);
  });

  it('splits many notices into messages below the NOTIFY payload limit, losing none', () => {
    const notices: LiveNotice[] = Array.from({ length: 1_000 }, (_, i) => ({ kind: 'uplinks', device: 100_000 + i, newest: String(10_000_000_000 + i) }));
    const messages = packLiveNotices(notices);
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) expect(Buffer.byteLength(m)).toBeLessThan(8_000);
    expect(messages.flatMap(unpackLiveNotices)).toEqual(notices);
  });

  it('drops what is not a notice', () => {
    expect(unpackLiveNotices('not json')).toEqual([]);
    expect(unpackLiveNotices('{"u":1}')).toEqual([]);
    expect(unpackLiveNotices('[["u",1,"12a"],["c",2,"x"],["x",1,1],["i",1,"5"],["c",3,4]]')).toEqual([{ kind: 'command', device: 3, command: 4 }]);
  });

  it('carries a publisher’s mark in its last message only, which listeners never see and old instances drop', () => {
    const notices: LiveNotice[] = Array.from({ length: 1_000 }, (_, i) => ({ kind: 'credentials', account: 100_000 + i }));
    const messages = packLiveNotices(notices, 'ab12');
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.map(liveEchoOf)).toEqual([...messages.slice(1).map(() => null), 'ab12']);
    for (const m of messages) expect(Buffer.byteLength(m)).toBeLessThan(8_000);
    expect(messages.flatMap(unpackLiveNotices)).toEqual(notices);
    expect(liveEchoOf(packLiveNotices([{ kind: 'credentials', account: 1 }])[0]!)).toBeNull();
  });
});

describe('publishing while Redis is not connected', () => {
  it('does not hand the notices to a client that is not ready: ingest never waits through its reconnects', async () => {
    // A port that accepts and never answers, as a Redis that hangs: the service's own client stays
    // short of ready (its ready check unanswered), as it does between reconnects to one that is down.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const redis = createRedisClient({ redis: { url: `redis://127.0.0.1:${port}`, cluster: null } } as unknown as AppConfig)!;
    redis.on('error', () => undefined);
    const bus = new LiveBus({} as DataSource, redis, '', 'test');
    try {
      await eventually(() => expect(sockets.size).toBe(1), { what: 'the client connected' });
      expect(redis.status).not.toBe('ready');
      const handed = jest.spyOn(redis, 'publish');
      await bus.publish([{ kind: 'uplinks', device: 7, newest: '12' }]);
      await bus.publish([{ kind: 'command', device: 7, command: 3 }], { heard: true });
      // Before, each call waited for the client: through its reconnect attempts to a Redis that is
      // down (up to ~2 s a call, seen in faults-services.e2e-spec.ts), for ever to one that hangs.
      expect(handed).not.toHaveBeenCalled();
    } finally {
      await bus.onApplicationShutdown();
      const ended = new Promise((resolve) => redis.once('end', resolve));
      redis.disconnect();
      for (const socket of sockets) socket.destroy();
      await ended;
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
