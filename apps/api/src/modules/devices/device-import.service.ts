import { Injectable } from '@nestjs/common';
import {
  type ApiErrorEntry,
  DEFAULT_DECODER_REF,
  DEFAULT_NETWORK_REF,
  type DeviceImportProblemWire,
  type DeviceImportRowWire,
  type DeviceImportWire,
  formatDate,
  type ImportedDevice,
  type ImportReference,
  readDeviceImport,
} from '@dts/domain';
import { AccountsRepository, DatamodelRepository, DeviceRegistrationRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';

/** Problems an answer lists at most: an import of 10,000 bad rows is refused with the first of them. */
export const IMPORT_PROBLEMS_SHOWN = 1_000;

type Kind = 'type' | 'decoder' | 'network' | 'icon';

/** uids by uid and by lower-cased name, of what the account may reference. */
interface Known {
  uids: Set<number>;
  names: Map<string, number>;
}

/**
 * Bulk registration (docs/api.md §4): every row checked by the same rules whether it is a dry run
 * or not — the row's members (libs/domain's reader), its references against what the account may
 * use (by uid or name), its EUI against the file's other rows and the registered devices, and the
 * count against `max_devices` — then all the rows registered in one transaction, or none.
 */
@Injectable()
export class DeviceImportService {
  constructor(
    private readonly registration: DeviceRegistrationRepository,
    private readonly accounts: AccountsRepository,
    private readonly datamodel: DatamodelRepository,
  ) {}

  async import(principal: AuthPrincipal, body: unknown, dryRun: boolean): Promise<DeviceImportWire> {
    const account = await this.accounts.findById(principal.accountId);
    if (!account) throw ApiException.of('AUTH_REQUIRED', 'the account no longer exists');
    if (account.expiresOn < formatDate(new Date())) throw ApiException.of('ACCOUNT_EXPIRED', `the account expired on ${account.expiresOn}`);
    const read = readDeviceImport(body);
    const problems: DeviceImportProblemWire[] = read.problems.map((p) => ({ ...p, code: 'VALIDATION_FAILED' as const }));
    const known = await this.known(principal.accountId);
    const rows: DeviceImportRowWire[] = [];
    const firstRowOf = new Map<string, number>();
    for (const device of read.devices) {
      const index = device.row - 1;
      const earlier = firstRowOf.get(device.eui);
      if (earlier !== undefined) {
        problems.push({
          row: device.row,
          field: `rows[${index}].eui`,
          code: 'VALIDATION_FAILED',
          message: `row ${device.row}: ${device.eui} is also on row ${earlier}`,
        });
        continue;
      }
      firstRowOf.set(device.eui, device.row);
      const refs = this.resolve(device, known, problems);
      rows.push({ row: device.row, devEUI: device.eui, label: device.label ?? device.eui, folder: device.folder, tags: device.tags, ...refs });
    }
    if (read.devices.length === 0 && read.problems.length === 0)
      problems.push({ row: null, field: 'rows', code: 'VALIDATION_FAILED', message: 'the import has no rows' });
    const taken = await this.registration.registered(
      principal.accountId,
      rows.map((r) => r.devEUI),
    );
    for (const row of rows) this.takenProblem(row, taken.get(row.devEUI), problems);
    const owned = await this.registration.countOwned(principal.accountId);
    if (owned + rows.length > account.maxDevices)
      problems.push({
        row: null,
        field: 'rows',
        code: 'DEVICE_LIMIT_REACHED',
        message: `the account holds ${owned} devices and may hold at most ${account.maxDevices}: ${rows.length} more do not fit`,
      });
    const answer = (created: number, listed: DeviceImportProblemWire[]): DeviceImportWire => ({
      dry_run: dryRun,
      format: read.format,
      rows: new Set([...read.devices.map((d) => d.row), ...read.problems.flatMap((p) => (p.row === null ? [] : [p.row]))]).size,
      created,
      valid: listed.length === 0,
      devices: rows,
      problems: listed.slice(0, IMPORT_PROBLEMS_SHOWN),
      devices_owned: owned,
      max_devices: account.maxDevices,
    });
    if (dryRun) return answer(0, sortProblems(problems));
    if (problems.length > 0) throw refusal(problems);
    const result = await this.registration.registerMany(
      principal.accountId,
      account.maxDevices,
      rows.map((r) => ({
        eui: r.devEUI,
        label: r.label,
        folder: r.folder,
        tags: r.tags,
        typeRef: r.type_ref,
        decoderRef: r.decoder_ref,
        networkRef: r.network_ref,
        iconRef: r.icon_ref,
      })),
    );
    if (!result.ok) {
      // Another registration came between the checks and the transaction.
      const late: DeviceImportProblemWire[] = [];
      for (const row of rows) this.takenProblem(row, result.taken.get(row.devEUI), late);
      if (result.owned + rows.length > account.maxDevices)
        late.push({ row: null, field: 'rows', code: 'DEVICE_LIMIT_REACHED', message: `the account may hold at most ${account.maxDevices} devices` });
      throw refusal(late.length > 0 ? late : [{ row: null, field: 'rows', code: 'DEVICE_LIMIT_REACHED', message: 'the import no longer fits' }]);
    }
    return answer(result.uids.length, []);
  }

  private takenProblem(row: DeviceImportRowWire, state: 'exists' | 'owned-elsewhere' | undefined, problems: DeviceImportProblemWire[]): void {
    if (!state) return;
    problems.push({
      row: row.row,
      field: `rows[${row.row - 1}].eui`,
      code: state === 'exists' ? 'DEVICE_EXISTS' : 'DEVICE_OWNED_ELSEWHERE',
      message: `row ${row.row}: ${row.devEUI} is already registered ${state === 'exists' ? 'on this account' : 'on another account'}`,
    });
  }

  /** A row's references by uid or name; a default where the row gives none (decoder raw, the simulated network). */
  private resolve(device: ImportedDevice, known: Record<Kind, Known>, problems: DeviceImportProblemWire[]) {
    const one = (kind: Kind, ref: ImportReference, fallback: number | null): number | null => {
      if (ref === null) return fallback;
      const uid = typeof ref === 'number' ? (known[kind].uids.has(ref) ? ref : null) : (known[kind].names.get(ref.toLowerCase()) ?? null);
      if (uid === null)
        problems.push({
          row: device.row,
          field: `rows[${device.row - 1}].${kind}`,
          code: 'VALIDATION_FAILED',
          message: `row ${device.row}: ${kind} ${typeof ref === 'number' ? ref : `"${ref}"`} does not exist`,
        });
      return uid;
    };
    return {
      type_ref: one('type', device.type, null),
      decoder_ref: one('decoder', device.decoder, DEFAULT_DECODER_REF),
      network_ref: one('network', device.network, DEFAULT_NETWORK_REF),
      icon_ref: one('icon', device.icon, null),
    };
  }

  /** What the account may reference: global rows and its own networks and codecs. */
  private async known(accountId: number): Promise<Record<Kind, Known>> {
    const [types, decoders, networks, icons] = await Promise.all([
      this.datamodel.deviceTypes(),
      this.datamodel.decoders(accountId),
      this.datamodel.networks(accountId),
      this.datamodel.icons(),
    ]);
    const index = (items: { uid: number; names: string[] }[]): Known => {
      const names = new Map<string, number>();
      for (const item of items) for (const name of item.names) if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), item.uid);
      return { uids: new Set(items.map((i) => i.uid)), names };
    };
    return {
      type: index(types.map((t) => ({ uid: t.uid, names: [t.type_name] }))),
      decoder: index(decoders.map((d) => ({ uid: d.uid, names: [d.name] }))),
      network: index(networks.map((n) => ({ uid: n.uid, names: [n.name] }))),
      icon: index(icons.map((i) => ({ uid: i.uid, names: [i.name, i.label] }))),
    };
  }
}

const STATUS_ORDER: DeviceImportProblemWire['code'][] = ['VALIDATION_FAILED', 'DEVICE_EXISTS', 'DEVICE_OWNED_ELSEWHERE', 'DEVICE_LIMIT_REACHED'];

/** Problems by kind (the first decides the status: 400, then 409, then 403), each kind by row. */
function sortProblems(problems: DeviceImportProblemWire[]): DeviceImportProblemWire[] {
  return [...problems].sort((a, b) => STATUS_ORDER.indexOf(a.code) - STATUS_ORDER.indexOf(b.code) || (a.row ?? 0) - (b.row ?? 0));
}

/** The refusal of an import: one error entry per problem (at most IMPORT_PROBLEMS_SHOWN), each naming its row and member. */
function refusal(problems: DeviceImportProblemWire[]): ApiException {
  const sorted = sortProblems(problems);
  const entries: ApiErrorEntry[] = sorted.slice(0, IMPORT_PROBLEMS_SHOWN).map((p) => ({ code: p.code, message: p.message, field: p.field }));
  if (sorted.length > IMPORT_PROBLEMS_SHOWN)
    entries.push({
      code: sorted[0]!.code,
      message: `and ${sorted.length - IMPORT_PROBLEMS_SHOWN} more problems (a dry run lists the first ${IMPORT_PROBLEMS_SHOWN})`,
      field: 'rows',
    });
  return new ApiException(entries);
}
