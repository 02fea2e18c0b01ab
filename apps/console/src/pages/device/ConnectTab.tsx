import type { ApiTokenWire, DeviceMetaWire, IngestResultWire, SimulateUplinkRequest } from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { fieldError } from '../../api/client';
import { useCan } from '../../api/organisation';
import { SelectField, TextField } from '../../components/form';
import { Card, ErrorBox, Loading } from '../../components/ui';
import { nameOf, useDatamodel } from '../../hooks/datamodel';
import { useNetworks, useSimulateUplink } from '../../hooks/networks';
import { useLiveRows } from '../../hooks/uplinks';
import { i18n, useTranslation } from '../../i18n';
import { EXAMPLE_PAYLOAD_HEX } from '../../lib/ingest-setup';
import { ChirpstackSetup, HttpJsonSetup, IngestKey, RestSetup, TtsSetup, unlessShown } from '../networks/IngestSetup';
import { UplinkRows } from './UplinkRows';

type Encoding = 'payload_hex' | 'payload_raw';

/** A number typed in a field, or why not; empty is "not given". */
function optionalNumber(text: string, min: number, max: number): number | undefined | string {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= min && n <= max ? n : i18n.t('connect.simulate.badNumber', { min, max });
}

/** A test uplink through the real ingestion: stored, decoded by the device's codec, live, to rules and integrations. */
function SimulateUplink({ eui }: { eui: string }) {
  const { t } = useTranslation();
  const simulate = useSimulateUplink(eui);
  const [form, setForm] = useState({ port: '1', encoding: 'payload_hex' as Encoding, payload: EXAMPLE_PAYLOAD_HEX, rssi: '', snr: '' });
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [result, setResult] = useState<IngestResultWire | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    const port = Number(form.port);
    if (!/^\d{1,3}$/.test(form.port.trim()) || port > 255) found.port = t('connect.simulate.badPort');
    if (form.payload.trim() === '') found[form.encoding] = t('connect.simulate.noPayload');
    const rssi = optionalNumber(form.rssi, -200, 50);
    const snr = optionalNumber(form.snr, -50, 50);
    if (typeof rssi === 'string') found.RSSI = rssi;
    if (typeof snr === 'string') found.SNR = snr;
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const body: SimulateUplinkRequest = { port, [form.encoding]: form.payload.trim().replace(/\s+/g, '') };
    if (typeof rssi === 'number') body.RSSI = rssi;
    if (typeof snr === 'number') body.SNR = snr;
    setResult(null);
    simulate.mutate(body, { onSuccess: setResult });
  };
  const error = (field: string) => problems[field] ?? fieldError(simulate.error, field);
  return (
    <Card title={t('connect.simulate.title')} id="simulate">
      <p className="muted">{t('connect.simulate.intro')}</p>
      <form onSubmit={submit} noValidate>
        <div className="grid-form">
          <TextField
            label={t('connect.simulate.port')}
            inputMode="numeric"
            value={form.port}
            onChange={(e) => setForm({ ...form, port: e.target.value })}
            error={error('port')}
          />
          <SelectField
            label={t('connect.simulate.encoding')}
            value={form.encoding}
            options={[
              { value: 'payload_hex', label: t('networks.add.hex') },
              { value: 'payload_raw', label: t('networks.add.base64') },
            ]}
            onChange={(e) => setForm({ ...form, encoding: e.target.value as Encoding })}
          />
        </div>
        <TextField
          label={t('connect.simulate.payload')}
          className="mono"
          value={form.payload}
          onChange={(e) => setForm({ ...form, payload: e.target.value })}
          error={error(form.encoding) ?? error(form.encoding === 'payload_hex' ? 'payload_raw' : 'payload_hex')}
          hint={t('connect.simulate.payloadHint', { max: 242 })}
        />
        <div className="grid-form">
          <TextField
            label={t('connect.simulate.rssi')}
            inputMode="numeric"
            value={form.rssi}
            onChange={(e) => setForm({ ...form, rssi: e.target.value })}
            error={error('RSSI')}
          />
          <TextField
            label={t('connect.simulate.snr')}
            inputMode="decimal"
            value={form.snr}
            onChange={(e) => setForm({ ...form, snr: e.target.value })}
            error={error('SNR')}
          />
        </div>
        <ErrorBox error={unlessShown(simulate.error, (f) => ['port', 'payload_hex', 'payload_raw', 'RSSI', 'SNR'].includes(f))} />
        <button type="submit" className="primary" disabled={simulate.isPending}>
          {t('connect.simulate.submit')}
        </button>
        <p role="status" className="muted small">
          {result ? (result.accepted === 1 ? t('connect.simulate.stored') : t('connect.simulate.duplicate')) : ''}
        </p>
      </form>
    </Card>
  );
}

/**
 * How to get the device's data in: a key with the ingest right, the exact settings for The Things
 * Stack, ChirpStack, a REST script and the account's HTTP JSON networks, a simulated uplink, and
 * the uplinks as they arrive.
 */
export function ConnectTab({ device }: { device: DeviceMetaWire }) {
  const { t } = useTranslation();
  const operator = useCan('operator');
  const networks = useNetworks();
  const datamodel = useDatamodel().data;
  const live = useLiveRows(device.devEUI);
  const [key, setKey] = useState<ApiTokenWire | null>(null);
  const keyValue = key?.hash ?? null;
  const rows = live.data ?? [];
  const httpJson = (networks.data ?? []).filter((n) => n.adapter === 'http-json');
  const own = networks.data?.find((n) => n.uid === device.network_ref);
  const networkName = own?.name ?? nameOf(datamodel?.networks, device.network_ref, 'name');
  return (
    <div className="connect-tab">
      <Card title={t('connect.title')} id="connect">
        <p>{t('connect.intro')}</p>
        <p>
          <Trans
            t={t}
            i18nKey={operator ? 'connect.commandsOperator' : 'connect.commands'}
            values={{ network: networkName }}
            components={{ strong: <strong />, settings: <Link href={`/devices/${device.devEUI}/settings`} />, networks: <Link href="/networks" /> }}
          />
        </p>
        <IngestKey name={t('connect.keyName', { device: device.label || device.devEUI })} created={key} onCreated={setKey} />
      </Card>
      {operator ? <SimulateUplink eui={device.devEUI} /> : null}
      <Card title={t('connect.latest.title')} id="connect-uplinks">
        <ErrorBox error={live.error} />
        {live.isPending ? <Loading what={t('device.live.loading')} /> : null}
        {!live.isPending && rows.length === 0 ? <p className="empty">{t('connect.latest.waiting')}</p> : null}
        {rows.length > 0 ? <UplinkRows caption={t('device.live.caption')} rows={rows.slice(0, 5)} maxHeight="260px" /> : null}
      </Card>
      <Card title={t('networks.kinds.ttn')} id="connect-tts">
        <TtsSetup keyValue={keyValue} network={own?.adapter === 'ttn' ? own : undefined} />
      </Card>
      <Card title={t('networks.kinds.chirpstack')} id="connect-chirpstack">
        <ChirpstackSetup keyValue={keyValue} />
      </Card>
      <Card title={t('connect.rest')} id="connect-rest">
        <RestSetup eui={device.devEUI} keyValue={keyValue} />
      </Card>
      {httpJson.map((n) => (
        <Card key={n.uid} title={t('connect.httpJson', { name: n.name })} id={`connect-http-${n.uid}`}>
          <HttpJsonSetup network={n} eui={device.devEUI} keyValue={keyValue} />
        </Card>
      ))}
    </div>
  );
}
