import type { CodecExampleWire } from '@dts/domain';
import { useTranslation } from '../../i18n';

/** "3 of 4 pass", or nothing to say. */
export function ExamplesSummary({ examples }: { examples: readonly CodecExampleWire[] }) {
  const { t } = useTranslation();
  if (examples.length === 0) return <span className="muted">{t('codecs.examples.none')}</span>;
  const passed = examples.filter((e) => e.result?.passed).length;
  const ran = examples.filter((e) => e.result !== null).length;
  return (
    <span className={`badge ${passed === examples.length ? 'badge-ok' : 'badge-bad'}`}>
      {t('codecs.examples.summary', { passed, count: examples.length })}
      {ran < examples.length ? t('codecs.examples.notRun', { count: examples.length - ran }) : ''}
    </span>
  );
}

const json = (value: unknown) => JSON.stringify(value);

/** A codec's examples with their input, what they expect and how they came out. */
export function ExamplesTable({ examples, caption }: { examples: readonly CodecExampleWire[]; caption: string }) {
  const { t } = useTranslation();
  return (
    <div className="table-scroll">
      <table className="data-table examples">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('codecs.examples.example')}</th>
            <th scope="col">{t('codecs.examples.input')}</th>
            <th scope="col">{t('codecs.examples.result')}</th>
          </tr>
        </thead>
        <tbody>
          {examples.map((example, i) => (
            <tr key={i} data-result={example.result === null ? 'not-run' : example.result.passed ? 'pass' : 'fail'}>
              <td>
                {example.description}
                <div className="muted small">{t(`codecs.examples.kind.${example.kind}`)}</div>
              </td>
              <td className="mono small">
                {example.kind === 'downlink_encode'
                  ? json(example.input.data)
                  : t('codecs.examples.fPortInput', {
                      fPort: example.input.fPort,
                      bytes: (example.input.bytes ?? []).map((b) => b.toString(16).padStart(2, '0')).join(' '),
                    })}
              </td>
              <td>
                {example.result === null ? (
                  <span className="badge">{t('codecs.examples.notRunBadge')}</span>
                ) : example.result.passed ? (
                  <span className="badge badge-ok">{t('codecs.examples.pass')}</span>
                ) : (
                  <>
                    <span className="badge badge-bad">{t('codecs.examples.fail')}</span> <span className="small">{example.result.message}</span>
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
