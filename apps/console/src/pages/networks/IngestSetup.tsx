import type { ApiTokenWire, NetworkConfigWire } from '@dts/domain';
import { ApiError } from '@dts/client';
import { Check, Copy, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { useCan } from '../../api/organisation';
import { CopyValue } from '../../components/CopyValue';
import { ErrorBox } from '../../components/ui';
import { useCreateIngestKey } from '../../hooks/networks';
import {
  chirpstackIntegration,
  curlCommand,
  httpJsonBody,
  httpJsonUrl,
  KEY_HEADER,
  keyHeaderValue,
  restBody,
  restUrl,
  TTS_MESSAGE_TYPES,
  ttsWebhook,
} from '../../lib/ingest-setup';

/** A failed call's error for the box under a form, unless each of its problems is shown beside a field of the form already. */
export function unlessShown(error: unknown, shown: (field: string) => boolean): unknown {
  if (error instanceof ApiError && error.errors.length > 0 && error.errors.every((e) => e.field !== undefined && shown(e.field))) return null;
  return error;
}

/** This service as the browser reaches it: the console is served from the api's own origin. */
export const serviceOrigin = () => window.location.origin;

function CopyButton({ text, what }: { text: string; what: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <>
      <button type="button" className="small" onClick={() => void copy()} aria-label={`Copy ${what}`}>
        {copied === 'yes' ? <Check aria-hidden size={14} /> : <Copy aria-hidden size={14} />} {copied === 'yes' ? 'Copied' : 'Copy'}
      </button>
      <span role="status" className="sr-only">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'no' ? 'The browser did not allow copying; select the text instead.' : ''}
      </span>
    </>
  );
}

/** One setting to type into another system: its name, its value to copy. */
function Setting({ name, value, note }: { name: string; value: string; note?: string }) {
  return (
    <div className="fact">
      <dt>{name}</dt>
      <dd>
        <span className="setting-value">
          <code data-setting={name}>{value}</code>
          <CopyButton text={value} what={name} />
        </span>
        {note ? <small className="hint">{note}</small> : null}
      </dd>
    </div>
  );
}

/** A command or a body to copy whole. */
export function CopyBlock({ text, label }: { text: string; label: string }) {
  return (
    <div className="copy-block">
      <pre className="json" aria-label={label} tabIndex={0}>
        {text}
      </pre>
      <CopyButton text={text} what={label} />
    </div>
  );
}

/**
 * The key a network sends uplinks in with. An administrator may make one here: an app token with
 * the `ingest` right alone (it can send data in, and nothing else), shown once. Others are told who can.
 */
export function IngestKey({ name, created, onCreated }: { name: string; created: ApiTokenWire | null; onCreated: (token: ApiTokenWire) => void }) {
  const admin = useCan('admin');
  const create = useCreateIngestKey();
  if (created)
    return (
      <div className="ingest-key" id="ingest-key">
        <p>
          <strong>Your new ingest key.</strong> Copy it now: the console will not show it again. The set-ups below already use it.
        </p>
        <CopyValue value={created.hash} label={`Value of the ingest key ${created.name ?? created.uid}`} />
      </div>
    );
  return (
    <div className="ingest-key" id="ingest-key">
      <p>
        Networks and scripts send uplinks with an API token of this account in the header <code>{KEY_HEADER}: Bearer …</code>. Best is a key with the{' '}
        <span className="mono">ingest</span> right alone: it can send data in and nothing else.
      </p>
      {admin ? (
        <>
          <button type="button" className="primary" disabled={create.isPending} onClick={() => create.mutate(name, { onSuccess: onCreated })}>
            <KeyRound aria-hidden size={16} /> Create an ingest key
          </button>
          <ErrorBox error={create.error} />
          <p className="muted small">
            Keys you made before are on the <Link href="/tokens">Tokens</Link> page.
          </p>
        </>
      ) : (
        <p className="muted">An administrator of this organisation can create an ingest key; the set-ups below show where it goes.</p>
      )}
    </div>
  );
}

/** POST /ingest/rest, the service's own format, as a curl command for this device. */
export function RestSetup({ eui, keyValue }: { eui: string; keyValue: string | null }) {
  const command = curlCommand(restUrl(serviceOrigin()), keyValue, restBody(eui));
  return (
    <>
      <p>
        From a script or a gateway of your own: post the service’s REST format. Its members are exact: <code>devEUI</code>, <code>port</code>, and the payload
        as <code>payload_hex</code> or <code>payload_raw</code> (Base64); optional <code>time_stamp_unix</code>, <code>fcnt</code>, <code>RSSI</code>,{' '}
        <code>SNR</code>, <code>SF</code>, <code>geoloc_lat</code>, <code>geoloc_lon</code>, <code>gateways</code>. Any other member refuses the uplink, naming
        it. One object or an array of up to 1,000.
      </p>
      <CopyBlock text={command} label="REST example (curl)" />
      <p className="muted small">The answer is 202 with how many uplinks were stored and, for each refused one, why.</p>
    </>
  );
}

/** The Things Stack's custom webhook, field by field as its console names them. */
export function TtsSetup({ keyValue, network }: { keyValue: string | null; network?: NetworkConfigWire }) {
  const hook = ttsWebhook(serviceOrigin(), keyValue);
  return (
    <>
      <p>In The Things Stack console: your application → Integrations → Webhooks → Add webhook → Custom webhook.</p>
      <dl className="facts setup-facts">
        {network?.webhook_id ? (
          <Setting name="Webhook ID" value={network.webhook_id} note="The same ID as this network’s: commands are pushed through this webhook." />
        ) : null}
        <Setting name="Webhook format" value={hook.format} />
        <Setting name="Base URL" value={hook.baseUrl} />
        <Setting name="Additional header: name" value={hook.header} />
        <Setting name="Additional header: value" value={hook.headerValue} />
      </dl>
      <p>Enable these message types, each with an empty path (the service reads the message type from the body):</p>
      <ul className="message-types">
        {TTS_MESSAGE_TYPES.map((t) => (
          <li key={t.name}>
            <strong>{t.name}</strong>: {t.why}
          </li>
        ))}
      </ul>
    </>
  );
}

/** ChirpStack v4's HTTP integration. */
export function ChirpstackSetup({ keyValue }: { keyValue: string | null }) {
  const integration = chirpstackIntegration(serviceOrigin(), keyValue);
  return (
    <>
      <p>In ChirpStack: your application → Integrations → HTTP → Add. ChirpStack adds the event to the URL itself (?event=up, join, status, …).</p>
      <dl className="facts setup-facts">
        <Setting name="Payload encoding" value="JSON" note="Protobuf works as well." />
        <Setting name="Event endpoint URL" value={integration.endpoint} />
        <Setting name="Header: key" value={integration.header} />
        <Setting name="Header: value" value={integration.headerValue} />
      </dl>
    </>
  );
}

/** An HTTP JSON network: its own route, and a body at its mapping's paths. */
export function HttpJsonSetup({ network, eui, keyValue }: { network: NetworkConfigWire; eui: string; keyValue: string | null }) {
  const url = httpJsonUrl(serviceOrigin(), network.uid);
  return (
    <>
      <p>Your server posts its own JSON to this network’s route; the network’s mapping says where each member is.</p>
      <dl className="facts setup-facts">
        <Setting name="URL" value={url} />
        <Setting name="Header" value={`${KEY_HEADER}: ${keyHeaderValue(keyValue)}`} />
      </dl>
      <CopyBlock text={curlCommand(url, keyValue, httpJsonBody(network.mapping, eui))} label={`${network.name} example (curl)`} />
    </>
  );
}
