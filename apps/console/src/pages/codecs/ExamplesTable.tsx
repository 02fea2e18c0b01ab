import type { CodecExampleWire } from '@dts/domain';
import { plural } from '../../lib/format';

const KIND: Record<CodecExampleWire['kind'], string> = { uplink: 'Uplink', downlink_encode: 'Downlink encoder', downlink_decode: 'Downlink decoder' };

/** "3 of 4 pass", or nothing to say. */
export function ExamplesSummary({ examples }: { examples: readonly CodecExampleWire[] }) {
  if (examples.length === 0) return <span className="muted">none</span>;
  const passed = examples.filter((e) => e.result?.passed).length;
  const ran = examples.filter((e) => e.result !== null).length;
  return (
    <span className={`badge ${passed === examples.length ? 'badge-ok' : 'badge-bad'}`}>
      {passed} of {examples.length} {examples.length === 1 ? 'passes' : 'pass'}
      {ran < examples.length ? `, ${plural(examples.length - ran, 'example')} not run` : ''}
    </span>
  );
}

const json = (value: unknown) => JSON.stringify(value);

/** A codec's examples with their input, what they expect and how they came out. */
export function ExamplesTable({ examples, caption }: { examples: readonly CodecExampleWire[]; caption: string }) {
  return (
    <div className="table-scroll">
      <table className="data-table examples">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Example</th>
            <th scope="col">Input</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {examples.map((example, i) => (
            <tr key={i} data-result={example.result === null ? 'not-run' : example.result.passed ? 'pass' : 'fail'}>
              <td>
                {example.description}
                <div className="muted small">{KIND[example.kind]}</div>
              </td>
              <td className="mono small">
                {example.kind === 'downlink_encode'
                  ? json(example.input.data)
                  : `fPort ${example.input.fPort}: ${(example.input.bytes ?? []).map((b) => b.toString(16).padStart(2, '0')).join(' ')}`}
              </td>
              <td>
                {example.result === null ? (
                  <span className="badge">not run</span>
                ) : example.result.passed ? (
                  <span className="badge badge-ok">pass</span>
                ) : (
                  <>
                    <span className="badge badge-bad">fail</span> <span className="small">{example.result.message}</span>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
