import type { DeviceMetaWire } from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { fieldError } from '../../api/client';
import { useSession } from '../../api/session';
import { TextField } from '../../components/form';
import { Card, ErrorBox } from '../../components/ui';
import { useUpdateDevice } from '../../hooks/devices';
import { retentionInput, retentionText, utcText } from '../../lib/format';

const text = (days: number | null) => (days === null ? '' : String(days));

/**
 * How long the device's raw uplinks are kept and where its stored data begins; its owner may give
 * it a shorter retention than the account's (the service refuses a longer one, naming the field).
 */
export function RetentionCard({ device }: { device: DeviceMetaWire }) {
  const me = useSession().data;
  const owner = me?.id === device.owner_ref;
  const own = device.uplink_retention_days;
  const effective = device.uplink_retention_effective_days;
  // The device's own value counts only where it is the shorter one.
  const why = effective === null ? 'neither the account nor this device limits it' : own === effective ? 'this device’s own' : 'the account’s';
  return (
    <Card title="Data retention" id="retention">
      <dl className="facts">
        <div className="fact">
          <dt>Raw uplinks kept</dt>
          <dd data-retention-effective={effective ?? 'forever'}>
            {retentionText(effective)} <span className="muted">({why})</span>
          </dd>
        </div>
        <div className="fact">
          <dt>Stored data begins (UTC)</dt>
          <dd data-data-first={device.ts_data_first_unix ?? ''}>{device.ts_data_first_unix === null ? 'no data yet' : utcText(device.ts_data_first_unix)}</dd>
        </div>
      </dl>
      <p className="muted small">
        The worker removes raw uplinks older than the retention every few minutes; the charts’ hourly and daily figures are kept longer.
      </p>
      {owner && me ? (
        <RetentionForm device={device} accountDays={me.uplink_retention_effective_days} />
      ) : (
        <p className="muted small">Only the device’s owner may shorten it.</p>
      )}
    </Card>
  );
}

function RetentionForm({ device, accountDays }: { device: DeviceMetaWire; accountDays: number | null }) {
  const update = useUpdateDevice(device.devEUI);
  const [days, setDays] = useState(text(device.uplink_retention_days));
  const changed = days.trim() !== text(device.uplink_retention_days);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Text that is no number goes as typed: the service refuses it, naming the field.
    update.mutate({ uplink_retention_days: retentionInput(days) as number | null });
  };
  const hint =
    accountDays === null
      ? 'Whole days; the account keeps them forever. Empty: the account’s.'
      : `Whole days, at most ${retentionText(accountDays)} (the account’s). Empty: the account’s.`;
  return (
    <form onSubmit={submit} noValidate aria-label="This device’s retention">
      <TextField
        label="This device’s own (days)"
        inputMode="numeric"
        value={days}
        onChange={(e) => {
          update.reset();
          setDays(e.target.value);
        }}
        hint={hint}
        error={fieldError(update.error, 'uplink_retention_days')}
      />
      {update.error && !fieldError(update.error, 'uplink_retention_days') ? <ErrorBox error={update.error} /> : null}
      {update.isSuccess && !changed ? (
        <p className="notice" role="status">
          Saved: raw uplinks are kept {retentionText(device.uplink_retention_effective_days)}.
        </p>
      ) : null}
      <button type="submit" disabled={!changed || update.isPending}>
        Save the retention
      </button>
    </form>
  );
}
