import type { AvailableCommandWire, CommandCancelledWire, CommandsFlushedWire, CommandsQuery, CommandWire, CreateCommandRequest } from '@dts/domain';
import { ROUTES } from '../routes';
import type { Transport } from '../transport';

export const commandsApi = (t: Transport) => ({
  /** Newest first, `limit` (100 when absent) older than `before`; `status` keeps some statuses only. */
  list: (eui: string, { status, ...q }: CommandsQuery = {}) =>
    // No status named is no filter (`status=` alone would be refused).
    t.data<CommandWire[]>(ROUTES.commandsList, { params: { eui }, query: { ...q, status: status?.length ? status : undefined } }),
  available: (eui: string) => t.data<AvailableCommandWire[]>(ROUTES.commandsAvailable, { params: { eui } }),
  /** 201 with the command, status `Created`. */
  create: (eui: string, body: CreateCommandRequest) => t.data<CommandWire>(ROUTES.commandsCreate, { params: { eui }, body }),
  /** Cancels a command that has not reached the device (Created, or Scheduled: taken out of its network's queue). */
  cancel: (eui: string, uid: number) => t.data<CommandCancelledWire>(ROUTES.commandsCancel, { params: { eui, uid } }),
  /** Cancels every command of the device that has not reached it; says which could not be, and why. */
  flush: (eui: string) => t.data<CommandsFlushedWire>(ROUTES.commandsFlush, { params: { eui } }),
});
