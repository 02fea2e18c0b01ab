import { DEVICE_IMPORT_MAX_ROWS, DEVICE_IMPORT_TEMPLATE, type DeviceImportRowWire, type DeviceImportWire } from '@dts/domain';
import { Download } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { type Column, DataTable } from '../components/DataTable';
import { Field } from '../components/form';
import { Card, ErrorBox, PageHeader } from '../components/ui';
import { nameOf, useDatamodel } from '../hooks/datamodel';
import { useImportDevices, usePreviewImport } from '../hooks/imports';
import { useTranslation } from '../i18n';
import { tagsText } from '../lib/format';

/** The file's content as the service takes it: CSV as text, JSON parsed (our rows, or a The Things Stack / ChirpStack export). */
function contentOf(name: string, text: string): unknown {
  if (/\.json$/i.test(name) || /^\s*[[{]/.test(text)) return JSON.parse(text) as unknown;
  return text;
}

/**
 * Bulk registration from a file: the service reads it in a dry run (the rules live there), the
 * preview shows every row and every problem by row, and one request then registers all or none.
 */
export function ImportDevicesPage() {
  const { t } = useTranslation();
  const preview = usePreviewImport();
  const importing = useImportDevices();
  const datamodel = useDatamodel().data;
  const [file, setFile] = useState<{ name: string; content: unknown } | null>(null);
  /** The name of a file that could not be read. */
  const [readError, setReadError] = useState<string | null>(null);
  const template = useMemo(() => URL.createObjectURL(new Blob([DEVICE_IMPORT_TEMPLATE], { type: 'text/csv' })), []);
  const choose = async (chosen: File | undefined) => {
    importing.reset();
    preview.reset();
    setReadError(null);
    setFile(null);
    if (!chosen) return;
    try {
      const content = contentOf(chosen.name, await chosen.text());
      setFile({ name: chosen.name, content });
      preview.mutate(content);
    } catch {
      setReadError(chosen.name);
    }
  };
  const report: DeviceImportWire | undefined = importing.data ?? preview.data;
  const problemsByRow = useMemo(() => {
    const map = new Map<number, string[]>();
    for (const p of report?.problems ?? []) if (p.row !== null) map.set(p.row, [...(map.get(p.row) ?? []), p.message.replace(/^row \d+: /, '')]);
    return map;
  }, [report]);
  const general = report?.problems.filter((p) => p.row === null) ?? [];
  const columns: Column<DeviceImportRowWire>[] = [
    { key: 'row', header: t('importDevices.columns.row'), className: 'num', render: (r) => r.row },
    { key: 'eui', header: t('importDevices.columns.eui'), className: 'mono', render: (r) => r.devEUI },
    { key: 'label', header: t('importDevices.columns.label'), render: (r) => r.label },
    { key: 'decoder', header: t('importDevices.columns.decoder'), render: (r) => nameOf(datamodel?.decoders, r.decoder_ref, 'name') },
    { key: 'network', header: t('importDevices.columns.network'), render: (r) => nameOf(datamodel?.networks, r.network_ref, 'name') },
    { key: 'folder', header: t('importDevices.columns.folder'), render: (r) => r.folder ?? '' },
    { key: 'tags', header: t('importDevices.columns.tags'), render: (r) => tagsText(r.tags) },
    {
      key: 'problems',
      header: t('importDevices.columns.problems'),
      render: (r) =>
        problemsByRow.has(r.row) ? (
          <span className="field-error">{problemsByRow.get(r.row)!.join('; ')}</span>
        ) : (
          <span className="badge badge-ok">{t('importDevices.ok')}</span>
        ),
    },
  ];
  const unreadRows = (report?.problems ?? []).filter((p) => p.row !== null && !report!.devices.some((d) => d.row === p.row));
  return (
    <>
      <PageHeader
        title={t('importDevices.title')}
        subtitle={t('importDevices.subtitle', { max: DEVICE_IMPORT_MAX_ROWS })}
        actions={
          <a className="button" href={template} download="device-import-template.csv">
            <Download aria-hidden size={16} /> {t('importDevices.template')}
          </a>
        }
      />
      <Card>
        <p className="muted">
          <Trans t={t} i18nKey="importDevices.explanation" components={{ mono: <span className="mono" /> }} />
        </p>
        <Field label={t('importDevices.file')} hint={t('importDevices.fileHint')}>
          {(a) => (
            <input
              {...a}
              type="file"
              accept=".csv,.json,text/csv,application/json"
              onChange={(e) => {
                void choose(e.target.files?.[0]);
                // The same file, fixed and chosen again, must be read again.
                e.target.value = '';
              }}
            />
          )}
        </Field>
        {readError ? (
          <p className="error-box" role="alert">
            {t('importDevices.unreadable', { name: readError })}
          </p>
        ) : null}
        <ErrorBox error={preview.error ?? importing.error} />
      </Card>
      {report ? (
        <Card
          title={
            importing.data ? t('importDevices.registeredTitle') : file ? t('importDevices.previewOf', { name: file.name }) : t('importDevices.previewOfFile')
          }
          id="import-preview"
          actions={
            !importing.data && report.valid ? (
              <button type="button" className="primary" disabled={importing.isPending} onClick={() => importing.mutate(file!.content)}>
                {importing.isPending ? t('importDevices.registering') : t('importDevices.register', { count: report.devices.length })}
              </button>
            ) : null
          }
        >
          <p role="status" aria-live="polite">
            {importing.data ? (
              <Trans t={t} i18nKey="importDevices.registered" count={importing.data.created} components={{ list: <Link href="/devices" /> }} />
            ) : report.valid ? (
              t('importDevices.valid', {
                rows: t('importDevices.rows', { count: report.rows }),
                format: report.format,
                total: report.devices_owned + report.devices.length,
                devices: t('common.ofDevices', { count: report.max_devices }),
              })
            ) : (
              t('importDevices.invalid', { count: report.problems.length, rows: t('importDevices.rows', { count: report.rows }), format: report.format })
            )}
          </p>
          {general.length > 0 || unreadRows.length > 0 ? (
            <ul className="problems" aria-label={t('importDevices.problems')}>
              {[...general, ...unreadRows].map((p, i) => (
                <li key={i} className="field-error">
                  {p.message}
                </li>
              ))}
            </ul>
          ) : null}
          <DataTable caption={t('importDevices.caption')} columns={columns} rows={report.devices} rowKey={(r) => String(r.row)} maxHeight="60vh" />
        </Card>
      ) : null}
    </>
  );
}
