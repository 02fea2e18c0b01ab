import type { DeviceMetaWire } from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { fieldError } from '../../api/client';
import { useSession } from '../../api/session';
import { TextField } from '../../components/form';
import { Card, ErrorBox } from '../../components/ui';
import { useUpdateDevice } from '../../hooks/devices';
import { type TFunction } from 'i18next';
import { useTranslation } from '../../i18n';
import { retentionInput, utcText } from '../../lib/format';

const text = (days: number | null) => (days === null ? '' : String(days));
/** A retention in days as the console says it: "1 day", "30 days", "forever" (null keeps). */
const retentionText = (t: TFunction, days: number | null) => (days === null ? t('device.retention.forever') : t('device.retention.days', { count: days }));

/**
 * How long the device's raw uplinks are kept and where its stored data begins; its owner may give
 * it a shorter retention than the account's (the service refuses a longer one, naming the field).
 */
export function RetentionCard({ device }: { device: DeviceMetaWire }) {
  const { t } = useTranslation();
  const me = useSession().data;
  const owner = me?.id === device.owner_ref;
  const own = device.uplink_retention_days;
  const effective = device.uplink_retention_effective_days;
  // The device's own value counts only where it is the shorter one.
  const why = effective === null ? t('device.retention.unlimited') : own === effective ? t('device.retention.own') : t('device.retention.account');
  return (
    <Card title={t('device.retention.title')} id="retention">
      <dl className="facts">
        <div className="fact">
          <dt>{t('device.retention.kept')}</dt>
          <dd data-retention-effective={effective ?? 'forever'}>
            {retentionText(t, effective)} <span className="muted">({why})</span>
          </dd>
        </div>
        <div className="fact">
          <dt>{t('device.retention.begins')}</dt>
          <dd data-data-first={device.ts_data_first_unix ?? ''}>
            {device.ts_data_first_unix === null ? t('device.retention.noData') : utcText(device.ts_data_first_unix)}
          </dd>
        </div>
      </dl>
      <p className="muted small">{t('device.retention.worker')}</p>
      {owner && me ? (
        <RetentionForm device={device} accountDays={me.uplink_retention_effective_days} />
      ) : (
        <p className="muted small">{t('device.retention.ownerOnly')}</p>
      )}
    </Card>
  );
}

function RetentionForm({ device, accountDays }: { device: DeviceMetaWire; accountDays: number | null }) {
  const { t } = useTranslation();
  const update = useUpdateDevice(device.devEUI);
  const [days, setDays] = useState(text(device.uplink_retention_days));
  const changed = days.trim() !== text(device.uplink_retention_days);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Text that is no number goes as typed: the service refuses it, naming the field.
    update.mutate({ uplink_retention_days: retentionInput(days) as number | null });
  };
  const hint = accountDays === null ? t('device.retention.hintForever') : t('device.retention.hint', { kept: retentionText(t, accountDays) });
  return (
    <form onSubmit={submit} noValidate aria-label={t('device.retention.form')}>
      <TextField
        label={t('device.retention.field')}
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
          {t('device.retention.saved', { kept: retentionText(t, device.uplink_retention_effective_days) })}
        </p>
      ) : null}
      <button type="submit" disabled={!changed || update.isPending}>
        {t('device.retention.save')}
      </button>
    </form>
  );
}
