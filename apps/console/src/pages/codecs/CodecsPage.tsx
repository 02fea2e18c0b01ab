import type { CodecWire } from '@dts/domain';
import { FileUp, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { fieldError } from '../../api/client';
import { Field, TextField } from '../../components/form';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useCodecs, useImportCodec } from '../../hooks/codecs';
import { useNow } from '../../hooks/now';
import { relativeTime } from '../../lib/format';
import { ExamplesSummary } from './ExamplesTable';
import { useCan } from '../../api/organisation';

/** The account's codecs: open one to edit and try it, write a new one, or import one from the device repository. */
export function CodecsPage() {
  const codecs = useCodecs();
  const [importing, setImporting] = useState(false);
  const now = useNow();
  const operator = useCan('operator');
  return (
    <>
      <PageHeader
        title="Codecs"
        subtitle="Your own payload decoders, in the codec convention device makers publish (decodeUplink). Use one as a device’s decoder."
        actions={
          operator ? (
            <>
              <button type="button" onClick={() => setImporting(!importing)} aria-expanded={importing}>
                <FileUp aria-hidden size={16} /> Import from the device repository
              </button>
              <Link href="/codecs/new" className="button primary">
                <Plus aria-hidden size={16} /> New codec
              </Link>
            </>
          ) : undefined
        }
      />
      {importing && operator ? <ImportCodecForm /> : null}
      <Card>
        {codecs.isPending ? <Loading what="Loading codecs" /> : null}
        <ErrorBox error={codecs.error} />
        {codecs.data && codecs.data.length === 0 ? (
          <Empty>No codecs yet. Write one, or import one with its YAML from The Things Network’s device repository.</Empty>
        ) : null}
        {codecs.data && codecs.data.length > 0 ? (
          <div className="table-scroll">
            <table className="data-table">
              <caption className="sr-only">Codecs of the account</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Decoder uid</th>
                  <th scope="col">Script</th>
                  <th scope="col">Examples</th>
                  <th scope="col">Changed</th>
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
                    <td className="num">{(new TextEncoder().encode(codec.script).length / 1024).toFixed(1)} KiB</td>
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
  return (
    <Card title="Import from the device repository" id="import-codec">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <p className="muted">
          Choose a codec YAML (<span className="mono">vendor/&lt;vendor&gt;/&lt;codec&gt;-codec.yaml</span>) and the scripts it names. Its examples become the
          codec’s own test cases: they run now, and you see which pass.
        </p>
        <TextField
          label="Name"
          hint="Defaults to the YAML’s file name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldError(importCodec.error, 'name')}
        />
        <Field label="Codec YAML" error={fieldError(importCodec.error, 'yaml')}>
          {(a) => <input {...a} type="file" accept=".yaml,.yml" onChange={(e) => setYaml(e.target.files?.[0] ?? null)} />}
        </Field>
        <Field label="Scripts" hint="The .js files the YAML names (one or more)" error={fieldError(importCodec.error, 'files')}>
          {(a) => <input {...a} type="file" accept=".js" multiple onChange={(e) => setScripts([...(e.target.files ?? [])])} />}
        </Field>
        <ErrorBox error={importCodec.error} />
        <button type="submit" className="primary" disabled={!yaml || scripts.length === 0 || importCodec.isPending}>
          {importCodec.isPending ? 'Importing and running its examples…' : 'Import'}
        </button>
      </form>
    </Card>
  );
}
