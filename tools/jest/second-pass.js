/**
 * The end-to-end files (apps/api/test/<name>.e2e-spec.ts) that CI's second pass, on PostgreSQL +
 * Redis, runs again after the embedded one: each tests something that is done differently there,
 * named beside it. The rest of the rule is in jest.config.js; tools/test-passes.spec.ts checks it.
 */
const SECOND_PASS_E2E = {
  'abuse-limits': 'four whole-history exports against small reads on PostgreSQL (skipped on the embedded database)',
  cache: "the response cache's chunks on Redis",
  commands: 'dispatch through the BullMQ queue, retries and the worker lock',
  deployment: 'two api instances behind nginx on shared PostgreSQL + Redis (skipped without them)',
  'faults-processes': 'worker and api killed mid-work on PostgreSQL + Redis',
  'faults-services': 'PostgreSQL and Redis stopped and restarted under load',
  'hostile-cost': "statements cancelled by PostgreSQL's statement timeout (skipped without it)",
  integrations: 'deliveries through the BullMQ queue',
  'integrations-fairness': 'per-account delivery lanes on Redis',
  'integrations-faults': 'a worker killed mid-delivery, redelivery from Redis',
  live: 'the live bus on Redis pub/sub',
  'live-account': "the account's live feed on the live bus",
  'multi-instance': 'api instances sharing PostgreSQL and Redis (sessions, counters, live bus, locks)',
  outage: 'the database going away under a pool of real connections',
  'read-replica': 'a real PostgreSQL streaming replica (skipped without PostgreSQL)',
  'redis-cluster': 'a real Redis Cluster (skipped without Redis)',
};

module.exports = { SECOND_PASS_E2E };
