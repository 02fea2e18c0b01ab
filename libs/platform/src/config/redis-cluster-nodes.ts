import { Secret } from './secret';

/** One seed node of a Redis Cluster: the client learns the others from it (CLUSTER SLOTS). */
export interface RedisClusterNode {
  readonly host: string;
  readonly port: number;
}

/** A Redis Cluster as REDIS_CLUSTER_NODES gives it: seed nodes and what every node is reached with. */
export interface RedisClusterSettings {
  readonly nodes: readonly RedisClusterNode[];
  /** `rediss://`: every node is reached over TLS, its certificate checked against the seed's host name. */
  readonly tls: boolean;
  readonly username: string | null;
  readonly password: Secret | null;
}

const DEFAULT_PORT = 6379;

interface ParsedEntry {
  node: RedisClusterNode;
  scheme: 'redis' | 'rediss';
  username: string;
  password: string;
}

/**
 * One entry: `host:port`, `[v6]:port`, or a `redis://` / `rediss://` URL with optional credentials.
 * Messages never include the entry as given: it may hold a password.
 */
function parseEntry(entry: string, position: number): ParsedEntry {
  const where = `entry ${position}`;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(entry)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'redis' && scheme !== 'rediss')
    throw new Error(`${where} is a ${scheme}:// URL; give host:port or a redis:// or rediss:// URL`);
  let url: URL;
  try {
    url = new URL(scheme ? entry : `redis://${entry}`);
  } catch {
    throw new Error(`${where} is not host:port or a redis:// or rediss:// URL`);
  }
  if (url.search || url.hash) throw new Error(`${where} has URL options (?… or #…); a cluster node takes none`);
  // A cluster serves database 0 only (SELECT is refused): a database number would be silently ignored.
  if (url.pathname !== '' && url.pathname !== '/' && url.pathname !== '/0') throw new Error(`${where} names a database; a Redis Cluster has database 0 only`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw new Error(`${where} has no host`);
  const port = url.port ? Number(url.port) : DEFAULT_PORT;
  return {
    node: { host, port },
    scheme: scheme === 'rediss' ? 'rediss' : 'redis',
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}

/**
 * REDIS_CLUSTER_NODES: comma-separated seed nodes. Every node of a cluster is reached the same way
 * (ioredis applies one set of connection options to the nodes it discovers), so the entries must
 * agree on the scheme and the credentials; entries that disagree are refused rather than one of
 * them picked. Throws an Error whose message (never the value: it may hold a password) says why.
 */
export function parseRedisClusterNodes(list: string): RedisClusterSettings {
  const entries = list
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('names no node; give host:port,host:port,… (or redis:// / rediss:// URLs)');
  const parsed = entries.map((entry, i) => parseEntry(entry, i + 1));
  const [first] = parsed as [ParsedEntry, ...ParsedEntry[]];
  for (const [i, p] of parsed.entries()) {
    if (p.scheme !== first.scheme) throw new Error(`entry ${i + 1} is ${p.scheme}:// but entry 1 is ${first.scheme}://; every node is reached the same way`);
    if (p.username !== first.username || p.password !== first.password)
      throw new Error(`entry ${i + 1} has other credentials than entry 1; every node of a cluster takes the same user and password`);
  }
  const seen = new Set<string>();
  const nodes = parsed
    .map((p) => p.node)
    .filter((n) => {
      const key = `${n.host}:${n.port}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return {
    nodes,
    tls: first.scheme === 'rediss',
    username: first.username || null,
    password: first.password ? new Secret(first.password) : null,
  };
}

/** `host:port,…` for messages: the nodes without credentials. */
export function describeClusterNodes(settings: Pick<RedisClusterSettings, 'nodes'>): string {
  return settings.nodes.map((n) => `${n.host.includes(':') ? `[${n.host}]` : n.host}:${n.port}`).join(',');
}
