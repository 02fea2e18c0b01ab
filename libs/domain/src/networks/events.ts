import { DeliveryError } from './network';
import { ItemError } from './uplink';

/**
 * Reads a message that is not a list of uplink items: a member the readers refuse (they throw
 * ItemError, naming it) refuses the whole request, 400 naming the member.
 */
export function onWholeMessage<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ItemError) throw new DeliveryError(error.problem.field ?? 'body', error.problem.message);
    throw error;
  }
}
