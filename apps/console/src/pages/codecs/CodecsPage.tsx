import { Trans } from 'react-i18next';
import type { CodecWire } from '@dts/domain';
import { FileUp, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { fieldError } from '../../api/client';
import { Field, TextField } from '../../components/form';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useCodecs, useImportCodec } from '../../hooks/codecs';
import { useNow } from '../../hooks/now';
import { currentLocale, useTranslation } from '../../i18n';
import { relativeTime } from '../../lib/format';
import { ExamplesSummary } from './ExamplesTable';
import { useCan } from '../../api/organisation';

/** The account's codecs: open one to edit and try it, write a new one, or import one from the device repository. */
export function CodecsPage() {
  const { t } = useTranslation();
  const codecs = useCodecs();
  const [importing, setImporting] = useState(false);
  const now = useNow();
  const operator = useCan('operator');
  return (
    <>
      <PageHeader
        title={t('codecs.title')}
        subtitle={t('codecs.subtitle')}
        actions={
          operator ? (
            <>
              <button type="button" onClick={() => setImporting(!importing)} aria-expanded={importing}>
                <FileUp aria-hidden size={16} /> {t('codecs.importOpen')}
              </button>
              <Link href="/codecs/new" className="button primary">
                <Plus aria-hidden size={16} /> {t('codecs.add')}
              </Link>
            </>
          ) : undefined
        }
      />
      {importing && operator ? <ImportCodecForm /> : null}
      <Card>
        {codecs.isPending ? <Loading what={t('codecs.loading')} /> : null}
        <ErrorBox error={codecs.error} />
        {codecs.data && codecs.data.length === 0 ? <Empty>{t('codecs.empty')}</Empty> : null}
        {codecs.data && codecs.data.length > 0 ? (
          <div className="table-scroll">
            <table className="data-table">
              <caption className="sr-only">{t('codecs.list.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('codecs.list.name')}</th>
                  <th scope="col">{t('codecs.list.uid')}</th>
                  <th scope="col">{t('codecs.list.script')}</th>
                  <th scope="col">{t('codecs.list.examples')}</th>
                  <th scope="col">{t('codecs.list.changed')}</th>
                </tr>
              </thead>
              <tbody>
                {codecs.data.map((codec: CodecWire) => (
                  <tr key={codec.uid}>
                    <td>
                      <Link href={`/codecs/${codec.uid}`} className="row-link">
                        {codec.name}
                      </Link>
                      {codec.description ? <div className="muted small">{codec.description}</div> : null}
                    </td>
                    <td className="num">{codec.uid}</td>
                    <td className="num">
                      {t('codecs.list.size', {
                        size: (new TextEncoder().encode(codec.script).length / 1024).toLocaleString(currentLocale(), {
                          minimumFractionDigits: 1,
                          maximumFractionDigits: 1,
                        }),
                      })}
                    </td>
                    <td>
                      <ExamplesSummary examples={codec.examples} />
                    </td>
                    <td className="nowrap">{relativeTime(codec.updated_unix, now)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Card>
    </>
  );
}

/**
 * A codec in The Things Network device repository's layout: its codec YAML and the scripts it
 * names (`fileName`), chosen as files. The service assembles, checks and runs the YAML's examples.
 */
function ImportCodecForm() {
  const { t } = useTranslation();
  const importCodec = useImportCodec();
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [yaml, setYaml] = useState<File | null>(null);
  const [scripts, setScripts] = useState<File[]>([]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!yaml) return;
    const files: Record<string, string> = {};
    // The YAML names its scripts relative to the vendor folder; a script in a subfolder is named by its path there.
    const named = [...(await yaml.text()).matchAll(/fileName:\s*['"]?([^'"\s]+)/g)].map((m) => m[1] ?? '');
    for (const file of scripts) files[named.find((n) => n === file.name || n.endsWith(`/${file.name}`)) ?? file.name] = await file.text();
    importCodec.mutate(
      { name: name || yaml.name.replace(/-codec\.ya?ml$/i, ''), yaml: await yaml.text(), files },
      { onSuccess: (codec) => navigate(`/codecs/${codec.uid}`) },
    );
  };
  // One sentence with the path in its place, set in monospace.
  return (
    <Card title={t('codecs.import.title')} id="import-codec">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <p className="muted">
          <Trans t={t} i18nKey="codecs.import.intro" values={{ path: 'vendor/<vendor>/<codec>-codec.yaml' }} components={{ path: <span className="mono" /> }} />
        </p>
        <TextField
          label={t('codecs.import.name')}
          hint={t('codecs.import.nameHint')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldError(importCodec.error, 'name')}
        />
        <Field label={t('codecs.import.yaml')} error={fieldError(importCodec.error, 'yaml')}>
          {(a) => <input {...a} type="file" accept=".yaml,.yml" onChange={(e) => setYaml(e.target.files?.[0] ?? null)} />}
        </Field>
        <Field label={t('codecs.import.scripts')} hint={t('codecs.import.scriptsHint')} error={fieldError(importCodec.error, 'files')}>
          {(a) => <input {...a} type="file" accept=".js" multiple onChange={(e) => setScripts([...(e.target.files ?? [])])} />}
        </Field>
        <ErrorBox error={importCodec.error} />
        <button type="submit" className="primary" disabled={!yaml || scripts.length === 0 || importCodec.isPending}>
          {importCodec.isPending ? t('codecs.import.pending') : t('codecs.import.submit')}
        </button>
      </form>
    </Card>
  );
}
