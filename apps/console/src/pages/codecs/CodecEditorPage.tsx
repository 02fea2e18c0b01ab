import type { CodecTryWire, CodecWire } from '@dts/domain';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { fieldError } from '../../api/client';
import { CodeEditor } from '../../components/CodeEditor';
import { SelectField, TextField } from '../../components/form';
import { Card, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useTranslation } from '../../i18n';
import { useCodec, useCreateCodec, useDeleteCodec, useTryCodec, useUpdateCodec } from '../../hooks/codecs';
import { ExamplesSummary, ExamplesTable } from './ExamplesTable';

const STARTER = `function decodeUplink(input) {
  var bytes = input.bytes;
  return {
    data: { temperature: ((bytes[0] << 8) | bytes[1]) / 100 },
    warnings: [],
    errors: [],
  };
}
`;

/** A new codec (`/codecs/new`) or one of the account's (`/codecs/{uid}`): edit, try, save. */
export function CodecEditorPage({ uid }: { uid: string }) {
  const { t } = useTranslation();
  const existing = uid === 'new' ? null : Number(uid);
  const codec = useCodec(existing);
  if (existing !== null && codec.isPending) return <Loading what={t('codecs.editor.loading')} />;
  if (existing !== null && codec.error) return <ErrorBox error={codec.error} />;
  return <CodecEditor key={uid} codec={codec.data ?? null} />;
}

function CodecEditor({ codec }: { codec: CodecWire | null }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [name, setName] = useState(codec?.name ?? '');
  const [description, setDescription] = useState(codec?.description ?? '');
  const [script, setScript] = useState(codec?.script ?? STARTER);
  const create = useCreateCodec();
  const update = useUpdateCodec(codec?.uid ?? 0);
  const remove = useDeleteCodec();
  const save = codec ? update : create;
  const [saved, setSaved] = useState(false);
  const editorHint = useId();
  useEffect(() => setSaved(false), [name, description, script]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (codec) update.mutate({ name, description, script }, { onSuccess: () => setSaved(true) });
    else create.mutate({ name, description, script }, { onSuccess: (made) => navigate(`/codecs/${made.uid}`, { replace: true }) });
  };
  const scriptError = fieldError(save.error, 'script');
  return (
    <>
      <p className="breadcrumb">
        <Link href="/codecs">{t('codecs.title')}</Link> / {codec ? codec.name : t('codecs.editor.newTitle')}
      </p>
      <PageHeader
        title={codec ? codec.name : t('codecs.editor.newTitle')}
        subtitle={codec ? t('codecs.editor.subtitle', { uid: codec.uid }) : t('codecs.editor.newSubtitle')}
        actions={
          codec ? (
            <button
              type="button"
              className="danger"
              disabled={remove.isPending}
              onClick={() => {
                if (window.confirm(t('codecs.editor.confirmDelete', { name: codec.name }))) remove.mutate(codec.uid, { onSuccess: () => navigate('/codecs') });
              }}
            >
              {t('codecs.editor.delete')}
            </button>
          ) : null
        }
      />
      <div className="codec-layout">
        <Card title={t('codecs.editor.script')} id="codec-script">
          <form onSubmit={submit} noValidate>
            <TextField label={t('codecs.editor.name')} required value={name} onChange={(e) => setName(e.target.value)} error={fieldError(save.error, 'name')} />
            <TextField
              label={t('codecs.editor.description')}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              error={fieldError(save.error, 'description')}
            />
            <p id={editorHint} className="hint">
              {t('codecs.editor.sandbox')}
            </p>
            <CodeEditor label={t('codecs.editor.editorLabel')} initial={script} onChange={setScript} describedBy={editorHint} />
            {scriptError ? (
              <p className="field-error" role="alert">
                {scriptError}
              </p>
            ) : null}
            <ErrorBox error={save.error && !scriptError ? save.error : null} />
            <div className="button-row">
              <button type="submit" className="primary" disabled={save.isPending || name.trim() === ''}>
                {save.isPending ? t('codecs.editor.saving') : codec ? t('codecs.editor.save') : t('codecs.editor.create')}
              </button>
              {saved ? (
                <span role="status" className="notice">
                  {codec && codec.examples.length > 0 ? t('codecs.editor.savedExamples') : t('codecs.editor.saved')}
                </span>
              ) : null}
            </div>
          </form>
        </Card>
        <TryPanel script={script} codec={codec} />
      </div>
      {codec && codec.examples.length > 0 ? (
        <Card title={t('codecs.editor.examples')} id="codec-examples" actions={<ExamplesSummary examples={codec.examples} />}>
          <ExamplesTable examples={codec.examples} caption={t('codecs.editor.examplesCaption')} />
        </Card>
      ) : null}
    </>
  );
}

/** Bytes and fPort through the draft script, on the service's codec threads, nothing stored; and the codec's examples with the draft. */
function TryPanel({ script, codec }: { script: string; codec: CodecWire | null }) {
  const { t } = useTranslation();
  const tryIt = useTryCodec();
  const [bytes, setBytes] = useState('');
  const [encoding, setEncoding] = useState<'hex' | 'base64'>('hex');
  const [fPort, setFPort] = useState('1');
  const [result, setResult] = useState<{ kind: 'decode' | 'examples'; answer: CodecTryWire } | null>(null);
  const decode = (event: FormEvent) => {
    event.preventDefault();
    const payload = encoding === 'hex' ? { payload_hex: bytes.replace(/[\s:-]/g, '') } : { payload_base64: bytes.trim() };
    tryIt.mutate({ script, fPort: Number(fPort), ...payload }, { onSuccess: (answer) => setResult({ kind: 'decode', answer }) });
  };
  const examples = () => tryIt.mutate({ script, examples_of: codec!.uid }, { onSuccess: (answer) => setResult({ kind: 'examples', answer }) });
  const answer = result?.answer;
  const output = answer?.decoded?.output as { warnings?: unknown[]; errors?: unknown[] } | null | undefined;
  return (
    <Card title={t('codecs.try.title')} id="codec-try">
      <form onSubmit={decode} noValidate>
        <div className="try-inputs">
          <TextField
            label={t('codecs.try.bytes')}
            className="mono"
            value={bytes}
            onChange={(e) => setBytes(e.target.value)}
            placeholder="01 67 00 E5"
            error={fieldError(tryIt.error, `payload_${encoding}`)}
          />
          <SelectField
            label={t('codecs.try.encoding')}
            value={encoding}
            onChange={(e) => setEncoding(e.target.value as 'hex' | 'base64')}
            options={[
              { value: 'hex', label: t('codecs.try.hex') },
              { value: 'base64', label: t('codecs.try.base64') },
            ]}
          />
          <TextField
            label={t('codecs.try.fPort')}
            type="number"
            min={0}
            max={255}
            value={fPort}
            onChange={(e) => setFPort(e.target.value)}
            error={fieldError(tryIt.error, 'fPort')}
          />
        </div>
        <div className="button-row">
          <button type="submit" className="primary" disabled={tryIt.isPending}>
            {t('codecs.try.decode')}
          </button>
          {codec && codec.examples.length > 0 ? (
            <button type="button" disabled={tryIt.isPending} onClick={examples}>
              {t('codecs.try.runExamples')}
            </button>
          ) : null}
        </div>
      </form>
      <ErrorBox error={tryIt.error && !fieldError(tryIt.error, `payload_${encoding}`) && !fieldError(tryIt.error, 'fPort') ? tryIt.error : null} />
      <div aria-live="polite" className="try-result">
        {answer ? (
          <>
            {answer.problem ? (
              <p className="error-box" role="alert">
                {t('codecs.try.problem', { problem: answer.problem })}
              </p>
            ) : null}
            {result?.kind === 'decode' && answer.decoded ? (
              <>
                <p>
                  {answer.decoded.valid ? (
                    <span className="badge badge-ok">{t('codecs.try.valid')}</span>
                  ) : (
                    <span className="badge badge-bad">{t('codecs.try.invalid')}</span>
                  )}{' '}
                  {answer.decoded.error ? <span data-testid="try-error">{answer.decoded.error}</span> : null}
                </p>
                <h3>{t('codecs.try.output')}</h3>
                <pre className="json" data-testid="try-output">
                  {JSON.stringify(answer.decoded.output, null, 2)}
                </pre>
                {output?.warnings?.length ? (
                  <p>
                    {t('codecs.try.warnings')} <span className="mono">{output.warnings.map(String).join('; ')}</span>
                  </p>
                ) : null}
                <h3>{t('codecs.try.measurements')}</h3>
                <p className="mono small">
                  {Object.entries(answer.decoded.measurements)
                    .filter(([, v]) => v !== null)
                    .map(([k, v]) => `${k}: ${String(v)}`)
                    .join(', ') || t('codecs.try.none')}
                </p>
              </>
            ) : null}
            {result?.kind === 'examples' ? <ExamplesTable examples={answer.examples} caption={t('codecs.try.examplesCaption')} /> : null}
            <p className="muted small">
              {t('codecs.try.limits', {
                cpu: answer.cpu_ms,
                perRequest: answer.limits.cpu_ms_per_request,
                perMinute: answer.limits.cpu_ms_per_minute,
                memory: answer.limits.memory_bytes / 1024 / 1024,
                call: answer.limits.call_ms,
                load: answer.limits.load_ms,
                script: answer.limits.max_script_bytes / 1024,
              })}
            </p>
          </>
        ) : null}
      </div>
    </Card>
  );
}
