import type { Network } from '../network';

/**
 * The built-in simulated network, the default of new devices: a class A device's network without the
 * radio. It queues every downlink at once (Scheduled); the oldest goes out at the device's next
 * uplink (Sent), a confirmed one is acknowledged by the uplink after that (Acknowledged), so that
 * what users see with it is what they see in the field (CommandsRepository.simulatedUplinks carries
 * it out). It takes no uplinks of its own: a device on it reports through any ingest route.
 */
export const SIMULATED: Network = {
  kind: 'simulated',
  uid: 1,
  name: 'Simulated',
  ingest: null,
  downlink: { via: 'simulated', accept: (d) => `sim:${d.commandUid}` },
  account: null,
  seed: {
    description:
      "Built-in simulated LoRaWAN network, class A: a downlink waits in its queue until the device's next uplink (Sent), a confirmed one is acknowledged by the uplink after. The default for new devices.",
    interface: 'REST_DIRECT',
    typeRef: 1,
    lorawanNetId: null,
  },
};
