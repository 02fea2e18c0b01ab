import {
  type ApiTokenWire,
  CHIRPSTACK,
  type CreateNetworkRequest,
  DEFAULT_HTTP_JSON_MAPPING,
  type HttpJsonMappingWire,
  type NetworkAdapter,
  type NetworkConfigWire,
  REST,
  THE_THINGS_STACK,
} from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { fieldError } from '../../api/client';
import { useCan } from '../../api/organisation';
import { ConfirmButton } from '../../components/ConfirmButton';
import { SelectField, TextField } from '../../components/form';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useAllDevices } from '../../hooks/devices';
import { useCreateNetwork, useDeleteNetwork, useNetworks } from '../../hooks/networks';
import { useTranslation } from '../../i18n';
import { utcText } from '../../lib/format';
import { httpJsonUrl, ingestUrl } from '../../lib/ingest-setup';
import { ChirpstackSetup, HttpJsonSetup, IngestKey, RestSetup, serviceOrigin, TtsSetup, unlessShown } from './IngestSetup';
import { TableHead } from '../../components/TableHead';

/** The members of an HTTP JSON mapping a person may point elsewhere (each labelled by `networks.add.mapping.<key>`). */
const MAPPING_FIELDS: Exclude<keyof HttpJsonMappingWire, 'payload_encoding'>[] = [
  'devEUI',
  'port',
  'payload',
  'time',
  'rssi',
  'snr',
  'message_id',
  'fcnt',
  'items',
];

/** What the set-up card shows: a kind's route that every account shares, or one of the account's networks. */
type Choice = 'ttn' | 'chirpstack' | 'rest' | `network:${number}`;

/** The route uplinks of a network reach this service by. */
function routeOf(network: NetworkConfigWire): string {
  const origin = serviceOrigin();
  if (network.adapter === 'http-json') return httpJsonUrl(origin, network.uid);
  return ingestUrl(origin, network.adapter === 'ttn' ? THE_THINGS_STACK : CHIRPSTACK);
}

const emptyForm = () => ({
  name: '',
  adapter: 'ttn' as NetworkAdapter,
  base_url: '',
  api_key: '',
  application_id: '',
  webhook_id: '',
  mapping: {} as Partial<Record<keyof HttpJsonMappingWire, string>>,
});

function AddNetwork({ onCreated }: { onCreated: (network: NetworkConfigWire) => void }) {
  const { t } = useTranslation();
  const create = useCreateNetwork();
  const [form, setForm] = useState(emptyForm);
  const api = form.adapter !== 'http-json';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateNetworkRequest = { name: form.name.trim(), adapter: form.adapter };
    if (api) Object.assign(body, { base_url: form.base_url.trim(), api_key: form.api_key });
    if (form.adapter === 'ttn') Object.assign(body, { application_id: form.application_id.trim(), webhook_id: form.webhook_id.trim() });
    if (!api) {
      // A member left empty keeps its default (docs/api.md §16).
      const mapping = Object.fromEntries(Object.entries(form.mapping).filter(([, v]) => v !== undefined && v.trim() !== ''));
      if (Object.keys(mapping).length > 0) body.mapping = mapping as Partial<HttpJsonMappingWire>;
    }
    create.mutate(body, {
      onSuccess: (network) => {
        setForm(emptyForm());
        onCreated(network);
      },
    });
  };
  const mappingError = (key: string) => fieldError(create.error, `mapping.${key}`);
  return (
    <Card title={t('networks.add.title')} id="add-network">
      <form onSubmit={submit} noValidate>
        <div className="grid-form">
          <SelectField
            label={t('networks.add.kind')}
            value={form.adapter}
            options={[
              { value: 'ttn', label: t('networks.kinds.ttn') },
              { value: 'chirpstack', label: t('networks.kinds.chirpstack') },
              { value: 'http-json', label: t('networks.kinds.httpJsonLong') },
            ]}
            onChange={(e) => setForm({ ...form, adapter: e.target.value as NetworkAdapter })}
            error={fieldError(create.error, 'adapter')}
          />
          <TextField
            label={t('networks.add.name')}
            value={form.name}
            maxLength={100}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={fieldError(create.error, 'name')}
          />
        </div>
        {api ? (
          <div className="grid-form setup-grid">
            <TextField
              label={form.adapter === 'ttn' ? t('networks.add.ttsAddress') : t('networks.add.chirpstackAddress')}
              placeholder={form.adapter === 'ttn' ? 'https://eu1.cloud.thethings.network' : 'https://chirpstack.example.org:8090'}
              type="url"
              value={form.base_url}
              onChange={(e) => setForm({ ...form, base_url: e.target.value })}
              error={fieldError(create.error, 'base_url')}
              hint={t('networks.add.addressHint')}
            />
            <TextField
              label={t('networks.add.apiKey')}
              type="password"
              autoComplete="off"
              value={form.api_key}
              onChange={(e) => setForm({ ...form, api_key: e.target.value })}
              error={fieldError(create.error, 'api_key')}
              hint={form.adapter === 'ttn' ? t('networks.add.ttsKeyHint') : t('networks.add.chirpstackKeyHint')}
            />
            {form.adapter === 'ttn' ? (
              <>
                <TextField
                  label={t('networks.add.applicationId')}
                  value={form.application_id}
                  onChange={(e) => setForm({ ...form, application_id: e.target.value })}
                  error={fieldError(create.error, 'application_id')}
                />
                <TextField
                  label={t('networks.add.webhookId')}
                  value={form.webhook_id}
                  onChange={(e) => setForm({ ...form, webhook_id: e.target.value })}
                  error={fieldError(create.error, 'webhook_id')}
                  hint={t('networks.add.webhookIdHint')}
                />
              </>
            ) : null}
          </div>
        ) : (
          <fieldset className="mapping">
            <legend>{t('networks.add.mappingLegend')}</legend>
            <div className="grid-form setup-grid">
              {MAPPING_FIELDS.map((key) => (
                <TextField
                  key={key}
                  label={t(`networks.add.mapping.${key}`)}
                  className="mono"
                  placeholder={DEFAULT_HTTP_JSON_MAPPING[key] ?? t('networks.add.mappingNone')}
                  value={form.mapping[key] ?? ''}
                  onChange={(e) => setForm({ ...form, mapping: { ...form.mapping, [key]: e.target.value } })}
                  error={mappingError(key)}
                />
              ))}
              <SelectField
                label={t('networks.add.payloadEncoding')}
                value={form.mapping.payload_encoding ?? 'hex'}
                options={[
                  { value: 'hex', label: t('networks.add.hex') },
                  { value: 'base64', label: t('networks.add.base64') },
                ]}
                onChange={(e) => setForm({ ...form, mapping: { ...form.mapping, payload_encoding: e.target.value } })}
                error={mappingError('payload_encoding')}
              />
            </div>
            <p className="muted small">{t('networks.add.pathHint')}</p>
          </fieldset>
        )}
        <ErrorBox
          error={unlessShown(create.error, (f) =>
            f.startsWith('mapping.')
              ? !api
              : ['name', 'adapter', ...(api ? ['base_url', 'api_key'] : []), ...(form.adapter === 'ttn' ? ['application_id', 'webhook_id'] : [])].includes(f),
          )}
        />
        <button type="submit" className="primary" disabled={create.isPending}>
          {t('networks.add.submit')}
        </button>
      </form>
    </Card>
  );
}

/** The account's networks (added, listed, deleted) and, for each and for the routes every account shares, the exact set-up. */
export function NetworksPage() {
  const { t } = useTranslation();
  const admin = useCan('admin');
  const networks = useNetworks();
  const remove = useDeleteNetwork();
  const devices = useAllDevices();
  const [choice, setChoice] = useState<Choice>('ttn');
  const [key, setKey] = useState<ApiTokenWire | null>(null);
  const [deviceEui, setDeviceEui] = useState('');
  const list = networks.data ?? [];
  const deviceList = devices.data ?? [];
  const eui = deviceEui || deviceList[0]?.devEUI || '';
  const chosen = choice.startsWith('network:') ? (list.find((n) => `network:${n.uid}` === choice) ?? null) : null;
  const kind = chosen ? chosen.adapter : choice;
  const kindText = (adapter: NetworkAdapter) => t(`networks.kinds.${adapter}`);
  const choices = [
    { value: 'ttn', label: t('networks.setup.anyTts', { name: THE_THINGS_STACK.name }) },
    { value: 'chirpstack', label: t('networks.setup.anyChirpstack', { name: CHIRPSTACK.name }) },
    { value: 'rest', label: t('networks.setup.anyRest', { name: REST.name }) },
    ...list.map((n) => ({ value: `network:${n.uid}`, label: t('networks.setup.ownNetwork', { name: n.name, kind: kindText(n.adapter) }) })),
  ];
  const keyValue = key?.hash ?? null;
  const setUp = (n: NetworkConfigWire) => {
    setChoice(`network:${n.uid}`);
    document.getElementById('set-up')?.scrollIntoView({ block: 'start' });
  };

  return (
    <>
      <PageHeader title={t('networks.title')} subtitle={t('networks.subtitle')} />
      <Card title={t('networks.list.title')} id="networks">
        {networks.isPending ? <Loading what={t('networks.list.loading')} /> : null}
        <ErrorBox error={networks.error ?? remove.error} />
        {networks.data && list.length === 0 ? <Empty>{t('networks.list.empty')}</Empty> : null}
        {list.length > 0 ? (
          <div className="table-scroll contained">
            <table className="data-table static">
              <TableHead
                caption={t('networks.list.caption')}
                columns={[t('networks.list.name'), t('networks.list.kind'), t('networks.list.route'), t('networks.list.uid'), t('networks.list.added')]}
                actions={t('networks.list.actions')}
              />
              <tbody>
                {list.map((n) => (
                  <tr key={n.uid} data-network={n.uid}>
                    <td>{n.name}</td>
                    <td>{kindText(n.adapter)}</td>
                    <td className="mono small">{routeOf(n)}</td>
                    <td className="num">{n.uid}</td>
                    <td className="nowrap">{utcText(n.created_unix)}</td>
                    <td>
                      <span className="row-actions">
                        <button type="button" className="small" onClick={() => setUp(n)}>
                          {t('networks.list.setUp')}
                        </button>
                        {admin ? (
                          <ConfirmButton
                            label={t('networks.list.delete')}
                            confirm={t('networks.list.confirmDelete', { name: n.name })}
                            pending={remove.isPending}
                            onConfirm={() => remove.mutate(n.uid, { onSuccess: () => choice === `network:${n.uid}` && setChoice('ttn') })}
                          />
                        ) : null}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <p className="muted small">{t('networks.list.commandsHint')}</p>
      </Card>
      {admin ? <AddNetwork onCreated={(n) => setChoice(`network:${n.uid}`)} /> : null}
      <Card title={t('networks.setup.title')} id="set-up">
        <div className="grid-form">
          <SelectField label={t('networks.setup.network')} value={choice} options={choices} onChange={(e) => setChoice(e.target.value as Choice)} />
          {deviceList.length > 0 ? (
            <SelectField
              label={t('networks.setup.exampleDevice')}
              value={eui}
              options={deviceList.map((d) => ({
                value: d.devEUI,
                label: d.label ? t('networks.setup.deviceOption', { label: d.label, eui: d.devEUI }) : d.devEUI,
              }))}
              onChange={(e) => setDeviceEui(e.target.value)}
            />
          ) : null}
        </div>
        <IngestKey name={t('networks.setup.keyName')} created={key} onCreated={setKey} />
        {kind === 'ttn' ? <TtsSetup keyValue={keyValue} network={chosen ?? undefined} /> : null}
        {kind === 'chirpstack' ? <ChirpstackSetup keyValue={keyValue} /> : null}
        {kind === 'rest' || (kind === 'http-json' && chosen) ? (
          eui ? (
            kind === 'rest' ? (
              <RestSetup eui={eui} keyValue={keyValue} />
            ) : (
              <HttpJsonSetup network={chosen!} eui={eui} keyValue={keyValue} />
            )
          ) : (
            <Empty>
              <Trans t={t} i18nKey="networks.setup.registerFirst" components={{ register: <Link href="/devices" /> }} />
            </Empty>
          )
        ) : null}
        {chosen && chosen.adapter !== 'http-json' ? <p className="muted small">{t('networks.setup.sameRoute', { kind: kindText(chosen.adapter) })}</p> : null}
      </Card>
    </>
  );
}
