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
import { Link } from 'wouter';
import { fieldError } from '../../api/client';
import { useCan } from '../../api/organisation';
import { ConfirmButton } from '../../components/ConfirmButton';
import { SelectField, TextField } from '../../components/form';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useAllDevices } from '../../hooks/devices';
import { useCreateNetwork, useDeleteNetwork, useNetworks } from '../../hooks/networks';
import { utcText } from '../../lib/format';
import { httpJsonUrl, ingestUrl } from '../../lib/ingest-setup';
import { ChirpstackSetup, HttpJsonSetup, IngestKey, RestSetup, serviceOrigin, TtsSetup, unlessShown } from './IngestSetup';

const KIND_TEXT: Record<NetworkAdapter, string> = { chirpstack: 'ChirpStack', ttn: 'The Things Stack', 'http-json': 'HTTP JSON' };
const KINDS = [
  { value: 'ttn', label: 'The Things Stack' },
  { value: 'chirpstack', label: 'ChirpStack' },
  { value: 'http-json', label: 'HTTP JSON (any server that posts JSON)' },
];
/** The members of an HTTP JSON mapping a person may point elsewhere, with what each holds. */
const MAPPING_FIELDS: { key: Exclude<keyof HttpJsonMappingWire, 'payload_encoding'>; label: string }[] = [
  { key: 'devEUI', label: 'Device EUI at' },
  { key: 'port', label: 'Port at' },
  { key: 'payload', label: 'Payload at' },
  { key: 'time', label: 'Time at' },
  { key: 'rssi', label: 'RSSI at' },
  { key: 'snr', label: 'SNR at' },
  { key: 'message_id', label: 'Message id at' },
  { key: 'fcnt', label: 'Frame counter at' },
  { key: 'items', label: 'Array of uplinks at' },
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
    <Card title="Add a network" id="add-network">
      <form onSubmit={submit} noValidate>
        <div className="grid-form">
          <SelectField
            label="Kind"
            value={form.adapter}
            options={KINDS}
            onChange={(e) => setForm({ ...form, adapter: e.target.value as NetworkAdapter })}
            error={fieldError(create.error, 'adapter')}
          />
          <TextField
            label="Name"
            value={form.name}
            maxLength={100}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={fieldError(create.error, 'name')}
          />
        </div>
        {api ? (
          <div className="grid-form setup-grid">
            <TextField
              label={form.adapter === 'ttn' ? 'The Things Stack address' : 'ChirpStack API address'}
              placeholder={form.adapter === 'ttn' ? 'https://eu1.cloud.thethings.network' : 'https://chirpstack.example.org:8090'}
              type="url"
              value={form.base_url}
              onChange={(e) => setForm({ ...form, base_url: e.target.value })}
              error={fieldError(create.error, 'base_url')}
              hint="Where the service sends commands."
            />
            <TextField
              label="API key"
              type="password"
              autoComplete="off"
              value={form.api_key}
              onChange={(e) => setForm({ ...form, api_key: e.target.value })}
              error={fieldError(create.error, 'api_key')}
              hint={
                form.adapter === 'ttn'
                  ? 'A key of the application with the right to send downlinks. Kept encrypted and never shown again.'
                  : 'A ChirpStack API token. Kept encrypted and never shown again.'
              }
            />
            {form.adapter === 'ttn' ? (
              <>
                <TextField
                  label="Application ID"
                  value={form.application_id}
                  onChange={(e) => setForm({ ...form, application_id: e.target.value })}
                  error={fieldError(create.error, 'application_id')}
                />
                <TextField
                  label="Webhook ID"
                  value={form.webhook_id}
                  onChange={(e) => setForm({ ...form, webhook_id: e.target.value })}
                  error={fieldError(create.error, 'webhook_id')}
                  hint="The ID you give the webhook in The Things Stack (set-up below)."
                />
              </>
            ) : null}
          </div>
        ) : (
          <fieldset className="mapping">
            <legend>Where your server’s JSON keeps each member (empty: the name shown)</legend>
            <div className="grid-form setup-grid">
              {MAPPING_FIELDS.map((f) => (
                <TextField
                  key={f.key}
                  label={f.label}
                  className="mono"
                  placeholder={DEFAULT_HTTP_JSON_MAPPING[f.key] ?? 'none'}
                  value={form.mapping[f.key] ?? ''}
                  onChange={(e) => setForm({ ...form, mapping: { ...form.mapping, [f.key]: e.target.value } })}
                  error={mappingError(f.key)}
                />
              ))}
              <SelectField
                label="Payload encoding"
                value={form.mapping.payload_encoding ?? 'hex'}
                options={[
                  { value: 'hex', label: 'Hexadecimal' },
                  { value: 'base64', label: 'Base64' },
                ]}
                onChange={(e) => setForm({ ...form, mapping: { ...form.mapping, payload_encoding: e.target.value } })}
                error={mappingError('payload_encoding')}
              />
            </div>
            <p className="muted small">A dot path (data.rx[0].rssi) or a JSON Pointer (/data/rx/0/rssi).</p>
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
          Add network
        </button>
      </form>
    </Card>
  );
}

/** The account's networks (added, listed, deleted) and, for each and for the routes every account shares, the exact set-up. */
export function NetworksPage() {
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
  const choices = [
    { value: 'ttn', label: `${THE_THINGS_STACK.name} (any application)` },
    { value: 'chirpstack', label: `${CHIRPSTACK.name} (any server)` },
    { value: 'rest', label: `${REST.name} (a script)` },
    ...list.map((n) => ({ value: `network:${n.uid}`, label: `${n.name} (${KIND_TEXT[n.adapter]})` })),
  ];
  const keyValue = key?.hash ?? null;
  const setUp = (n: NetworkConfigWire) => {
    setChoice(`network:${n.uid}`);
    document.getElementById('set-up')?.scrollIntoView({ block: 'start' });
  };

  return (
    <>
      <PageHeader title="Networks" subtitle="Where uplinks come from, and where commands go out." />
      <Card title="Your networks" id="networks">
        {networks.isPending ? <Loading what="Loading networks" /> : null}
        <ErrorBox error={networks.error ?? remove.error} />
        {networks.data && list.length === 0 ? (
          <Empty>
            No networks of your own yet. Uplinks from The Things Stack, ChirpStack and scripts need none: follow the set-up below. Add one to send commands
            through your own The Things Stack or ChirpStack, or to read any other server’s JSON.
          </Empty>
        ) : null}
        {list.length > 0 ? (
          <div className="table-scroll contained">
            <table className="data-table static">
              <caption className="sr-only">Your networks</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Uplinks to</th>
                  <th scope="col">Network id</th>
                  <th scope="col">Added (UTC)</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((n) => (
                  <tr key={n.uid} data-network={n.uid}>
                    <td>{n.name}</td>
                    <td>{KIND_TEXT[n.adapter]}</td>
                    <td className="mono small">{routeOf(n)}</td>
                    <td className="num">{n.uid}</td>
                    <td className="nowrap">{utcText(n.created_unix)}</td>
                    <td>
                      <span className="row-actions">
                        <button type="button" className="small" onClick={() => setUp(n)}>
                          Set up
                        </button>
                        {admin ? (
                          <ConfirmButton
                            label="Delete"
                            confirm={`Delete the network ${n.name}? Its devices are left without a network.`}
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
        <p className="muted small">A device sends its commands through the network chosen in its Settings (by its network id).</p>
      </Card>
      {admin ? <AddNetwork onCreated={(n) => setChoice(`network:${n.uid}`)} /> : null}
      <Card title="Set-up" id="set-up">
        <div className="grid-form">
          <SelectField label="Network" value={choice} options={choices} onChange={(e) => setChoice(e.target.value as Choice)} />
          {deviceList.length > 0 ? (
            <SelectField
              label="Example device"
              value={eui}
              options={deviceList.map((d) => ({ value: d.devEUI, label: d.label ? `${d.label} (${d.devEUI})` : d.devEUI }))}
              onChange={(e) => setDeviceEui(e.target.value)}
            />
          ) : null}
        </div>
        <IngestKey name="Ingest key" created={key} onCreated={setKey} />
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
              <Link href="/devices">Register a device</Link> first: the example sends an uplink of one of your devices.
            </Empty>
          )
        ) : null}
        {chosen && chosen.adapter !== 'http-json' ? (
          <p className="muted small">Uplinks of every {KIND_TEXT[chosen.adapter]} reach the same route; this network is what commands go out through.</p>
        ) : null}
      </Card>
    </>
  );
}
