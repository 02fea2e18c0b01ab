import { DEVICE_IMPORT_MAX_ROWS, DEVICE_IMPORT_TEMPLATE, type DeviceImportRowWire, type DeviceImportWire } from '@dts/domain';
import { Download } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { type Column, DataTable } from '../components/DataTable';
import { Field } from '../components/form';
import { Card, ErrorBox, PageHeader } from '../components/ui';
import { nameOf, useDatamodel } from '../hooks/datamodel';
import { useImportDevices, usePreviewImport } from '../hooks/imports';
import { plural, tagsText } from '../lib/format';

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
  const preview = usePreviewImport();
  const importing = useImportDevices();
  const datamodel = useDatamodel().data;
  const [file, setFile] = useState<{ name: string; content: unknown } | null>(null);
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
      setReadError(`${chosen.name} is neither CSV nor JSON.`);
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
    { key: 'row', header: 'Row', className: 'num', render: (r) => r.row },
    { key: 'eui', header: 'EUI', className: 'mono', render: (r) => r.devEUI },
    { key: 'label', header: 'Label', render: (r) => r.label },
    { key: 'decoder', header: 'Decoder', render: (r) => nameOf(datamodel?.decoders, r.decoder_ref, 'name') },
    { key: 'network', header: 'Network', render: (r) => nameOf(datamodel?.networks, r.network_ref, 'name') },
    { key: 'folder', header: 'Folder', render: (r) => r.folder ?? '' },
    { key: 'tags', header: 'Tags', render: (r) => tagsText(r.tags) },
    {
      key: 'problems',
      header: 'Problems',
      render: (r) =>
        problemsByRow.has(r.row) ? <span className="field-error">{problemsByRow.get(r.row)!.join('; ')}</span> : <span className="badge badge-ok">ok</span>,
    },
  ];
  const unreadRows = (report?.problems ?? []).filter((p) => p.row !== null && !report!.devices.some((d) => d.row === p.row));
  return (
    <>
      <PageHeader
        title="Import devices"
        subtitle={`Register up to ${DEVICE_IMPORT_MAX_ROWS.toLocaleString('en')} devices from one file: all of them or none.`}
        actions={
          <a className="button" href={template} download="device-import-template.csv">
            <Download aria-hidden size={16} /> CSV template
          </a>
        }
      />
      <Card>
        <p className="muted">
          A CSV file with the columns <span className="mono">eui, label, type, decoder, network, icon, folder, tags</span> (type, decoder, network and icon by
          name or number; tags separated by commas), a JSON list of such rows, or a device export of The Things Stack (
          <span className="mono">ttn-lw-cli end-devices list</span>, its CSV import file) or ChirpStack (its device list).
        </p>
        <Field label="File" hint="Nothing is registered until you confirm">
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
            {readError}
          </p>
        ) : null}
        <ErrorBox error={preview.error ?? importing.error} />
      </Card>
      {report ? (
        <Card
          title={importing.data ? 'Registered' : `Preview of ${file?.name ?? 'the file'}`}
          id="import-preview"
          actions={
            !importing.data && report.valid ? (
              <button type="button" className="primary" disabled={importing.isPending} onClick={() => importing.mutate(file!.content)}>
                {importing.isPending ? 'Registering…' : `Register ${plural(report.devices.length, 'device')}`}
              </button>
            ) : null
          }
        >
          <p role="status" aria-live="polite">
            {importing.data ? (
              <>
                {plural(importing.data.created, 'device')} registered. <Link href="/devices">See them in the device list</Link>.
              </>
            ) : report.valid ? (
              `${plural(report.rows, 'row')} (${report.format}), no problems: the account will hold ${(report.devices_owned + report.devices.length).toLocaleString('en')} of its ${plural(report.max_devices, 'device')}.`
            ) : (
              `${plural(report.rows, 'row')} (${report.format}), ${plural(report.problems.length, 'problem')}: nothing can be registered until ${report.problems.length === 1 ? 'it is' : 'they are'} fixed.`
            )}
          </p>
          {general.length > 0 || unreadRows.length > 0 ? (
            <ul className="problems" aria-label="Problems of the file">
              {[...general, ...unreadRows].map((p, i) => (
                <li key={i} className="field-error">
                  {p.message}
                </li>
              ))}
            </ul>
          ) : null}
          <DataTable caption="Rows of the file" columns={columns} rows={report.devices} rowKey={(r) => String(r.row)} maxHeight="60vh" />
        </Card>
      ) : null}
    </>
  );
}
