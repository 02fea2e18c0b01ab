import { type AvailableCommandWire, type CommandWire, isWaiting } from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { fieldError } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { SelectField, TextField } from '../../components/form';
import { Card, ErrorBox, Loading, StatusBadge } from '../../components/ui';
import { useAvailableCommands, useCancelCommand, useCommands, useFlushCommands, useSendCommand } from '../../hooks/commands';
import { count } from '../../lib/format';
import { type FormValues, namedCommandRequest, paramFields, type RawEncoding, rawCommandRequest } from '../../lib/command-form';
import type { CommandShow } from '../../lib/live-merge';
import { useCan } from '../../api/organisation';
import { useTranslation } from '../../i18n';

function NamedForm({ eui, command }: { eui: string; command: AvailableCommandWire }) {
  const { t } = useTranslation();
  const send = useSendCommand(eui);
  const [values, setValues] = useState<FormValues>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [confirmed, setConfirmed] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = namedCommandRequest(command, values, confirmed);
    if ('problems' in built) return setProblems(built.problems);
    setProblems({});
    send.mutate(built.request, { onSuccess: () => setValues({}) });
  };
  return (
    <form onSubmit={submit} noValidate className="command-form">
      <p className="muted">{command.description}</p>
      {paramFields(command).map((f) =>
        f.kind === 'boolean' ? (
          <label key={f.name} className="check">
            <input type="checkbox" checked={values[f.name] === true} onChange={(e) => setValues({ ...values, [f.name]: e.target.checked })} /> {f.name}:{' '}
            {f.description}
          </label>
        ) : (
          <TextField
            key={f.name}
            label={f.name}
            hint={[
              f.description,
              f.minimum !== undefined && f.maximum !== undefined
                ? t('commands.named.range', { min: f.minimum, max: f.maximum })
                : f.minimum !== undefined
                  ? t('commands.named.from', { min: f.minimum })
                  : f.maximum !== undefined
                    ? t('commands.named.to', { max: f.maximum })
                    : '',
            ]
              .filter(Boolean)
              .join(' ')}
            inputMode={f.kind === 'text' ? 'text' : 'numeric'}
            value={String(values[f.name] ?? '')}
            onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
            error={problems[f.name] ?? fieldError(send.error, `params.${f.name}`) ?? fieldError(send.error, f.name)}
          />
        ),
      )}
      <label className="check">
        <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> {t('commands.named.confirmed')}
      </label>
      <ErrorBox error={send.error} />
      <button type="submit" className="primary" disabled={send.isPending}>
        {t('commands.named.submit', { name: command.name })}
      </button>
    </form>
  );
}

function RawForm({ eui }: { eui: string }) {
  const { t } = useTranslation();
  const send = useSendCommand(eui);
  const [port, setPort] = useState('1');
  const [encoding, setEncoding] = useState<RawEncoding>('payload_hex');
  const [payload, setPayload] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = rawCommandRequest(port, encoding, payload, confirmed);
    if ('problems' in built) return setProblems(built.problems);
    setProblems({});
    send.mutate(built.request, { onSuccess: () => setPayload('') });
  };
  return (
    <form onSubmit={submit} noValidate className="command-form">
      <div className="grid-2">
        <TextField
          label={t('commands.rawForm.port')}
          inputMode="numeric"
          value={port}
          onChange={(e) => setPort(e.target.value)}
          error={problems.port ?? fieldError(send.error, 'port')}
        />
        <SelectField
          label={t('commands.rawForm.encoding')}
          value={encoding}
          onChange={(e) => setEncoding(e.target.value as RawEncoding)}
          options={[
            { value: 'payload_hex', label: t('commands.rawForm.hex') },
            { value: 'payload_base64', label: t('commands.rawForm.base64') },
            { value: 'payload_ASCII', label: t('commands.rawForm.ascii') },
          ]}
        />
      </div>
      <TextField
        label={t('commands.rawForm.payload')}
        className="mono"
        value={payload}
        onChange={(e) => setPayload(e.target.value)}
        error={problems.payload ?? fieldError(send.error, encoding)}
      />
      <label className="check">
        <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> {t('commands.rawForm.confirmed')}
      </label>
      <ErrorBox error={send.error} />
      <button type="submit" className="primary" disabled={send.isPending}>
        {t('commands.rawForm.submit')}
      </button>
    </form>
  );
}

/** Send a named or raw downlink; the list below moves through its statuses live; cancel what has not left. */
export function CommandsTab({ eui }: { eui: string }) {
  const { t } = useTranslation();
  const [show, setShow] = useState<CommandShow>('all');
  const commands = useCommands(eui, show);
  // What "Cancel all waiting" would take: the same list as the waiting view (one request when it is shown).
  const waitingList = useCommands(eui, 'waiting');
  const available = useAvailableCommands(eui);
  const cancel = useCancelCommand(eui);
  const flush = useFlushCommands(eui);
  const rows = commands.data?.pages.flatMap((page) => page.rows);
  const waiting = waitingList.data?.pages.reduce((n, page) => n + page.rows.length, 0) ?? 0;
  const [choice, setChoice] = useState('');
  const named = available.data?.find((c) => c.name === choice);
  // A viewer sees the commands, not controls it cannot use.
  const operator = useCan('operator');
  const columns: Column<CommandWire>[] = [
    { key: 'time', header: t('commands.list.created'), className: 'nowrap mono', render: (c) => c.time_stamp },
    {
      key: 'status',
      header: t('commands.list.status'),
      render: (c) => (
        <span data-command-status={c.status}>
          <StatusBadge status={c.status} />
          {c.reason ? ` ${c.reason}` : ''}
        </span>
      ),
    },
    { key: 'port', header: t('commands.list.port'), className: 'num', render: (c) => c.port },
    { key: 'hex', header: t('commands.list.payload'), className: 'mono', render: (c) => c.payload_hex },
    { key: 'confirmed', header: t('commands.list.confirmed'), render: (c) => (c.confirmed ? t('commands.list.yes') : t('commands.list.no')) },
    {
      key: 'cancel',
      header: t('commands.list.action'),
      render: (c) =>
        // Not on the device yet: still ours, or waiting in the network's queue.
        operator && isWaiting(c.status) ? (
          <button
            type="button"
            className="ghost small"
            onClick={() => cancel.mutate(c.uid)}
            disabled={cancel.isPending}
            aria-label={t('commands.list.cancelLabel', { uid: c.uid })}
          >
            {t('commands.list.cancel')}
          </button>
        ) : null,
    },
  ];
  return (
    <div className="device-grid">
      {operator ? (
        <Card title={t('commands.send.title')} id="send-command">
          <SelectField
            label={t('commands.send.command')}
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
            empty={t('commands.send.raw')}
            options={(available.data ?? []).map((c) => ({ value: c.name, label: c.name }))}
          />
          <ErrorBox error={available.error} />
          {named ? <NamedForm key={named.name} eui={eui} command={named} /> : <RawForm eui={eui} />}
        </Card>
      ) : null}
      <Card
        title={t('commands.list.title')}
        id="commands"
        actions={
          operator && waiting > 0 ? (
            <button type="button" className="ghost small" onClick={() => flush.mutate()} disabled={flush.isPending}>
              {t('commands.list.cancelAll', { n: `${count(waiting)}${waitingList.hasNextPage ? '+' : ''}` })}
            </button>
          ) : null
        }
      >
        <SelectField
          label={t('commands.list.show')}
          value={show}
          onChange={(e) => setShow(e.target.value as CommandShow)}
          options={[
            { value: 'all', label: t('commands.list.showAll') },
            { value: 'waiting', label: t('commands.list.showWaiting') },
          ]}
        />
        <ErrorBox error={commands.error ?? cancel.error ?? flush.error} />
        {flush.data && flush.data.kept.length > 0 ? (
          <p role="status">
            {t('commands.list.kept', { list: flush.data.kept.map((k) => t('commands.list.keptItem', { uid: k.uid, reason: k.reason })).join('; ') })}
          </p>
        ) : null}
        {commands.isPending ? <Loading what={t('commands.list.loading')} /> : null}
        {rows && rows.length === 0 ? <p className="empty">{show === 'waiting' ? t('commands.list.noneWaiting') : t('commands.list.none')}</p> : null}
        {rows && rows.length > 0 ? (
          <DataTable
            caption={t('commands.list.caption')}
            columns={columns}
            rows={rows}
            rowKey={(c) => c.uid}
            maxHeight="420px"
            onEndReached={() => {
              if (commands.hasNextPage && !commands.isFetchingNextPage) void commands.fetchNextPage();
            }}
          />
        ) : null}
      </Card>
    </div>
  );
}
