import type { ApiTokenWire, NetworkConfigWire } from '@dts/domain';
import { ApiError } from '@dts/client';
import { Check, Copy, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { useCan } from '../../api/organisation';
import { CopyValue } from '../../components/CopyValue';
import { ErrorBox } from '../../components/ui';
import { useCreateIngestKey } from '../../hooks/networks';
import { useTranslation } from '../../i18n';
import {
  chirpstackIntegration,
  curlCommand,
  httpJsonBody,
  httpJsonUrl,
  KEY_HEADER,
  keyHeaderValue,
  restBody,
  REST_MAX_ITEMS,
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
  const { t } = useTranslation();
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
      <button type="button" className="small" onClick={() => void copy()} aria-label={t('networks.key.copyLabel', { what })}>
        {copied === 'yes' ? <Check aria-hidden size={14} /> : <Copy aria-hidden size={14} />}{' '}
        {copied === 'yes' ? t('common.copy.copied') : t('common.copy.copy')}
      </button>
      <span role="status" className="sr-only">
        {copied === 'yes' ? t('common.copy.copiedStatus') : copied === 'no' ? t('common.copy.refused') : ''}
      </span>
    </>
  );
}

/** One setting to type into another system: its name (shown), its id (`data-setting`, the same in every language), its value to copy. */
function Setting({ id, name, value, note }: { id: string; name: string; value: string; note?: string }) {
  return (
    <div className="fact">
      <dt>{name}</dt>
      <dd>
        <span className="setting-value">
          <code data-setting={id}>{value}</code>
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
  const { t } = useTranslation();
  const admin = useCan('admin');
  const create = useCreateIngestKey();
  if (created)
    return (
      <div className="ingest-key" id="ingest-key">
        <p>
          <Trans t={t} i18nKey="networks.key.created" components={{ strong: <strong /> }} />
        </p>
        <CopyValue value={created.hash} label={t('networks.key.valueLabel', { name: created.name ?? created.uid })} />
      </div>
    );
  return (
    <div className="ingest-key" id="ingest-key">
      <p>
        <Trans t={t} i18nKey="networks.key.explanation" values={{ header: KEY_HEADER }} components={{ code: <code />, mono: <span className="mono" /> }} />
      </p>
      {admin ? (
        <>
          <button type="button" className="primary" disabled={create.isPending} onClick={() => create.mutate(name, { onSuccess: onCreated })}>
            <KeyRound aria-hidden size={16} /> {t('networks.key.create')}
          </button>
          <ErrorBox error={create.error} />
          <p className="muted small">
            <Trans t={t} i18nKey="networks.key.before" components={{ tokens: <Link href="/tokens" /> }} />
          </p>
        </>
      ) : (
        <p className="muted">{t('networks.key.askAdmin')}</p>
      )}
    </div>
  );
}

/** POST /ingest/rest, the service's own format, as a curl command for this device. */
export function RestSetup({ eui, keyValue }: { eui: string; keyValue: string | null }) {
  const { t } = useTranslation();
  const command = curlCommand(restUrl(serviceOrigin()), keyValue, restBody(eui));
  return (
    <>
      <p>
        <Trans t={t} i18nKey="networks.rest.explanation" values={{ max: REST_MAX_ITEMS }} components={{ code: <code /> }} />
      </p>
      <CopyBlock text={command} label={t('networks.rest.example')} />
      <p className="muted small">{t('networks.rest.answer')}</p>
    </>
  );
}

/** The Things Stack's custom webhook, field by field as its console names them. */
export function TtsSetup({ keyValue, network }: { keyValue: string | null; network?: NetworkConfigWire }) {
  const { t } = useTranslation();
  const hook = ttsWebhook(serviceOrigin(), keyValue);
  return (
    <>
      <p>{t('networks.tts.where')}</p>
      <dl className="facts setup-facts">
        {network?.webhook_id ? (
          <Setting id="Webhook ID" name={t('networks.tts.webhookId')} value={network.webhook_id} note={t('networks.tts.webhookIdNote')} />
        ) : null}
        <Setting id="Webhook format" name={t('networks.tts.format')} value={hook.format} />
        <Setting id="Base URL" name={t('networks.tts.baseUrl')} value={hook.baseUrl} />
        <Setting id="Additional header: name" name={t('networks.tts.headerName')} value={hook.header} />
        <Setting id="Additional header: value" name={t('networks.tts.headerValue')} value={hook.headerValue} />
      </dl>
      <p>{t('networks.tts.messageTypes')}</p>
      <ul className="message-types">
        {TTS_MESSAGE_TYPES.map((type) => (
          <li key={type.name}>
            <strong>{type.name}</strong>: {t(`networks.tts.why.${type.why}`)}
          </li>
        ))}
      </ul>
    </>
  );
}

/** ChirpStack v4's HTTP integration. */
export function ChirpstackSetup({ keyValue }: { keyValue: string | null }) {
  const { t } = useTranslation();
  const integration = chirpstackIntegration(serviceOrigin(), keyValue);
  return (
    <>
      <p>{t('networks.chirpstack.where')}</p>
      <dl className="facts setup-facts">
        <Setting id="Payload encoding" name={t('networks.chirpstack.payloadEncoding')} value="JSON" note={t('networks.chirpstack.protobuf')} />
        <Setting id="Event endpoint URL" name={t('networks.chirpstack.endpoint')} value={integration.endpoint} />
        <Setting id="Header: key" name={t('networks.chirpstack.headerKey')} value={integration.header} />
        <Setting id="Header: value" name={t('networks.chirpstack.headerValue')} value={integration.headerValue} />
      </dl>
    </>
  );
}

/** An HTTP JSON network: its own route, and a body at its mapping's paths. */
export function HttpJsonSetup({ network, eui, keyValue }: { network: NetworkConfigWire; eui: string; keyValue: string | null }) {
  const { t } = useTranslation();
  const url = httpJsonUrl(serviceOrigin(), network.uid);
  return (
    <>
      <p>{t('networks.httpJson.explanation')}</p>
      <dl className="facts setup-facts">
        <Setting id="URL" name={t('networks.httpJson.url')} value={url} />
        <Setting id="Header" name={t('networks.httpJson.header')} value={`${KEY_HEADER}: ${keyHeaderValue(keyValue)}`} />
      </dl>
      <CopyBlock text={curlCommand(url, keyValue, httpJsonBody(network.mapping, eui))} label={t('networks.httpJson.example', { name: network.name })} />
    </>
  );
}
