import { type AvailableCommandWire, type CommandWire, isWaiting } from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { fieldError } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { SelectField, TextField } from '../../components/form';
import { Card, ErrorBox, Loading, StatusBadge } from '../../components/ui';
import { useAvailableCommands, useCancelCommand, useCommands, useFlushCommands, useSendCommand } from '../../hooks/commands';
import { type FormValues, namedCommandRequest, paramFields, type RawEncoding, rawCommandRequest } from '../../lib/command-form';
import type { CommandShow } from '../../lib/live-merge';
import { useCan } from '../../api/organisation';

function NamedForm({ eui, command }: { eui: string; command: AvailableCommandWire }) {
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
            hint={[f.description, f.minimum !== undefined ? `from ${f.minimum}` : '', f.maximum !== undefined ? `to ${f.maximum}` : '']
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
        <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> Confirmed downlink (the device acknowledges)
      </label>
      <ErrorBox error={send.error} />
      <button type="submit" className="primary" disabled={send.isPending}>
        Send {command.name}
      </button>
    </form>
  );
}

function RawForm({ eui }: { eui: string }) {
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
          label="FPort"
          inputMode="numeric"
          value={port}
          onChange={(e) => setPort(e.target.value)}
          error={problems.port ?? fieldError(send.error, 'port')}
        />
        <SelectField
          label="Encoding"
          value={encoding}
          onChange={(e) => setEncoding(e.target.value as RawEncoding)}
          options={[
            { value: 'payload_hex', label: 'Hexadecimal' },
            { value: 'payload_base64', label: 'Base64' },
            { value: 'payload_ASCII', label: 'ASCII text' },
          ]}
        />
      </div>
      <TextField
        label="Payload"
        className="mono"
        value={payload}
        onChange={(e) => setPayload(e.target.value)}
        error={problems.payload ?? fieldError(send.error, encoding)}
      />
      <label className="check">
        <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> Confirmed downlink
      </label>
      <ErrorBox error={send.error} />
      <button type="submit" className="primary" disabled={send.isPending}>
        Send raw downlink
      </button>
    </form>
  );
}

/** Send a named or raw downlink; the list below moves through its statuses live; cancel what has not left. */
export function CommandsTab({ eui }: { eui: string }) {
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
    { key: 'time', header: 'Created (UTC)', className: 'nowrap mono', render: (c) => c.time_stamp },
    {
      key: 'status',
      header: 'Status',
      render: (c) => (
        <span data-command-status={c.status}>
          <StatusBadge status={c.status} />
          {c.reason ? ` ${c.reason}` : ''}
        </span>
      ),
    },
    { key: 'port', header: 'Port', className: 'num', render: (c) => c.port },
    { key: 'hex', header: 'Payload (hex)', className: 'mono', render: (c) => c.payload_hex },
    { key: 'confirmed', header: 'Confirmed', render: (c) => (c.confirmed ? 'yes' : 'no') },
    {
      key: 'cancel',
      header: 'Action',
      render: (c) =>
        // Not on the device yet: still ours, or waiting in the network's queue.
        operator && isWaiting(c.status) ? (
          <button type="button" className="ghost small" onClick={() => cancel.mutate(c.uid)} disabled={cancel.isPending} aria-label={`Cancel command ${c.uid}`}>
            Cancel
          </button>
        ) : null,
    },
  ];
  return (
    <div className="device-grid">
      {operator ? (
        <Card title="Send a command" id="send-command">
          <SelectField
            label="Command"
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
            empty="Raw downlink (port and bytes)"
            options={(available.data ?? []).map((c) => ({ value: c.name, label: c.name }))}
          />
          <ErrorBox error={available.error} />
          {named ? <NamedForm key={named.name} eui={eui} command={named} /> : <RawForm eui={eui} />}
        </Card>
      ) : null}
      <Card
        title="Commands"
        id="commands"
        actions={
          operator && waiting > 0 ? (
            <button type="button" className="ghost small" onClick={() => flush.mutate()} disabled={flush.isPending}>
              Cancel all waiting ({waiting}
              {waitingList.hasNextPage ? '+' : ''})
            </button>
          ) : null
        }
      >
        <SelectField
          label="Show"
          value={show}
          onChange={(e) => setShow(e.target.value as CommandShow)}
          options={[
            { value: 'all', label: 'Every command' },
            { value: 'waiting', label: 'Waiting to leave (Created, Scheduled)' },
          ]}
        />
        <ErrorBox error={commands.error ?? cancel.error ?? flush.error} />
        {flush.data && flush.data.kept.length > 0 ? <p role="status">Kept: {flush.data.kept.map((k) => `#${k.uid} (${k.reason})`).join('; ')}</p> : null}
        {commands.isPending ? <Loading what="Loading commands" /> : null}
        {rows && rows.length === 0 ? <p className="empty">{show === 'waiting' ? 'Nothing waiting to leave.' : 'No command sent yet.'}</p> : null}
        {rows && rows.length > 0 ? (
          <DataTable
            caption="Commands, newest first, status updated live"
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
