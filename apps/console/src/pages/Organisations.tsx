import {
  ORG_ROLES,
  ORGANISATION_NAME_MAX_LENGTH,
  ORGANISATION_NAME_MIN_LENGTH,
  ORGANISATION_NAME_PATTERN,
  type OrganisationWire,
  type OrgRole,
  roleAtLeast,
} from '@dts/domain';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Trans } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { fieldError } from '../api/client';
import { switchOrganisation, useActingOrganisation, useOrganisations } from '../api/organisation';
import { useSession } from '../api/session';
import { ConfirmButton } from '../components/ConfirmButton';
import { SelectField, TextField } from '../components/form';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../components/ui';
import {
  useAnswerInvitation,
  useCreateOrganisation,
  useDeleteOrganisation,
  useInvitations,
  useInvite,
  useMembers,
  useOrganisationInvitations,
  useRemoveMember,
  useSetRole,
  useUpdateOrganisation,
  useWithdrawInvitation,
} from '../hooks/organisations';
import { useTranslation } from '../i18n';
import { count } from '../lib/format';
import { OrganisationAudit } from './AuditLog';
import { TableHead } from '../components/TableHead';

/** The button that makes the console act in an organisation (or in the person's own account). */
function ActInButton({ name }: { name: string | null }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const acting = useActingOrganisation();
  if ((acting?.toLowerCase() ?? null) === (name?.toLowerCase() ?? null)) return <span className="badge badge-ok">{t('organisations.actingHere')}</span>;
  return (
    <button
      type="button"
      className="small"
      onClick={() => {
        switchOrganisation(client, name);
        navigate('/');
      }}
    >
      {name === null ? t('organisations.actInOwn') : t('organisations.actIn', { name })}
    </button>
  );
}

/** Invitations to the person, their organisations, and a new one. */
export function OrganisationsPage() {
  const { t } = useTranslation();
  const organisations = useOrganisations();
  const invitations = useInvitations();
  const answer = useAnswerInvitation();
  const create = useCreateOrganisation();
  const acting = useActingOrganisation();
  const [form, setForm] = useState({ name: '', fullname: '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: form.name.trim(), ...(form.fullname.trim() ? { fullname: form.fullname.trim() } : {}) },
      { onSuccess: () => setForm({ name: '', fullname: '' }) },
    );
  };
  const open = invitations.data ?? [];
  return (
    <>
      <PageHeader title={t('organisations.title')} subtitle={t('organisations.subtitle')} actions={acting !== null ? <ActInButton name={null} /> : undefined} />
      {open.length > 0 ? (
        <Card title={t('organisations.toYou.title')} id="invitations">
          <ErrorBox error={answer.error} />
          <ul className="plain-list">
            {open.map((i) => (
              <li key={i.uid} data-invitation={i.uid}>
                <span>
                  <Trans
                    t={t}
                    i18nKey={i.invited_by ? 'organisations.toYou.invitedBy' : 'organisations.toYou.invited'}
                    values={{ organisation: i.organisation, role: t(`organisations.role.${i.role}`), inviter: i.invited_by, expires: i.expires }}
                    components={{ strong: <strong /> }}
                  />
                </span>{' '}
                <button type="button" className="primary small" disabled={answer.isPending} onClick={() => answer.mutate({ uid: i.uid, accept: true })}>
                  {t('organisations.toYou.accept')}
                </button>{' '}
                <button type="button" className="ghost small" disabled={answer.isPending} onClick={() => answer.mutate({ uid: i.uid, accept: false })}>
                  {t('organisations.toYou.decline')}
                </button>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card title={t('organisations.list.title')} id="organisations">
        {organisations.isPending ? <Loading what={t('organisations.list.loading')} /> : null}
        <ErrorBox error={organisations.error} />
        {organisations.data && organisations.data.length === 0 ? <Empty>{t('organisations.list.empty')}</Empty> : null}
        {organisations.data && organisations.data.length > 0 ? (
          <div className="table-scroll">
            <table className="data-table static">
              <TableHead
                caption={t('organisations.list.title')}
                columns={[t('organisations.list.name'), t('organisations.list.role'), t('organisations.list.members'), t('organisations.list.devices')]}
                actions={t('organisations.actions')}
              />
              <tbody>
                {organisations.data.map((o) => (
                  <tr key={o.id} data-organisation={o.name}>
                    <td>
                      <Link href={`/organisations/${o.id}`}>{o.name}</Link>
                      {o.fullname ? <span className="muted"> {o.fullname}</span> : null}
                    </td>
                    <td>{t(`organisations.role.${o.role}`)}</td>
                    <td>{count(o.members)}</td>
                    <td>{t('organisations.list.devicesOf', { devices: o.devices, max: o.max_devices })}</td>
                    <td>
                      <ActInButton name={o.name} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Card>
      <Card title={t('organisations.create.title')} id="create-organisation">
        <form onSubmit={submit} noValidate className="grid-form">
          <TextField
            label={t('organisations.create.name')}
            required
            pattern={ORGANISATION_NAME_PATTERN.source}
            minLength={ORGANISATION_NAME_MIN_LENGTH}
            maxLength={ORGANISATION_NAME_MAX_LENGTH}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            hint={t('organisations.create.nameHint')}
            error={fieldError(create.error, 'name')}
          />
          <TextField
            label={t('organisations.create.fullname')}
            maxLength={200}
            value={form.fullname}
            onChange={(e) => setForm({ ...form, fullname: e.target.value })}
          />
          <ErrorBox error={create.error && !fieldError(create.error, 'name') ? create.error : null} />
          <div>
            <button type="submit" className="primary" disabled={create.isPending}>
              {t('organisations.create.submit')}
            </button>
          </div>
        </form>
      </Card>
    </>
  );
}

/** One organisation: its members and their roles, invitations, audit log and settings, each shown to the roles that may use it. */
export function OrganisationPage({ id }: { id: string }) {
  const { t } = useTranslation();
  const uid = Number(id);
  const organisations = useOrganisations();
  const org = organisations.data?.find((o) => o.id === uid);
  if (organisations.isPending) return <Loading what={t('organisations.one.loading')} />;
  if (!org)
    return (
      <section className="card">
        <h1>{t('organisations.one.notFound')}</h1>
        <p>
          <Trans t={t} i18nKey="organisations.one.notMember" components={{ list: <Link href="/organisations" /> }} />
        </p>
      </section>
    );
  const admin = roleAtLeast(org.role, 'admin');
  return (
    <>
      <PageHeader
        title={org.name}
        subtitle={t(org.fullname ? 'organisations.one.summaryNamed' : 'organisations.one.summary', {
          fullname: org.fullname,
          role: t(`organisations.role.${org.role}`),
          devices: org.devices,
          max: org.max_devices,
          expiration: org.expiration,
        })}
        actions={<ActInButton name={org.name} />}
      />
      <Members org={org} />
      {admin ? <Invitations org={org} /> : null}
      {admin ? <OrganisationAudit uid={org.id} /> : null}
      {admin ? <Settings org={org} /> : null}
    </>
  );
}

function Members({ org }: { org: OrganisationWire }) {
  const { t } = useTranslation();
  const me = useSession().data;
  const members = useMembers(org.id);
  const setRole = useSetRole(org.id);
  const remove = useRemoveMember(org.id, me?.id);
  const admin = roleAtLeast(org.role, 'admin');
  const grantable = ORG_ROLES.filter((r) => roleAtLeast(org.role, r));
  return (
    <Card title={t('organisations.members.title')} id="members">
      {members.isPending ? <Loading what={t('organisations.members.loading')} /> : null}
      <ErrorBox error={members.error ?? setRole.error ?? remove.error} />
      {members.data ? (
        <div className="table-scroll">
          <table className="data-table static">
            <TableHead
              caption={t('organisations.members.caption', { name: org.name })}
              columns={[t('organisations.members.member'), t('organisations.members.role'), t('organisations.members.since')]}
              actions={t('organisations.actions')}
            />
            <tbody>
              {members.data.map((m) => {
                const self = m.account_id === me?.id;
                // The only owner cannot leave (the service would refuse: LAST_OWNER); they hand ownership over first.
                const soleOwner = m.role === 'owner' && members.data.filter((x) => x.role === 'owner').length === 1;
                const manageable = admin && !self && roleAtLeast(org.role, m.role);
                return (
                  <tr key={m.account_id} data-member={m.username}>
                    <td>
                      {m.username}
                      {m.fullname ? <span className="muted"> {m.fullname}</span> : null}
                      {self ? <span className="muted"> {t('organisations.members.you')}</span> : null}
                    </td>
                    <td>
                      {manageable ? (
                        <select
                          aria-label={t('organisations.members.roleOf', { name: m.username })}
                          value={m.role}
                          disabled={setRole.isPending}
                          onChange={(e) => setRole.mutate({ account: m.account_id, role: e.target.value as OrgRole })}
                        >
                          {grantable.map((r) => (
                            <option key={r} value={r}>
                              {t(`organisations.role.${r}`)}
                            </option>
                          ))}
                        </select>
                      ) : (
                        t(`organisations.role.${m.role}`)
                      )}
                    </td>
                    <td className="nowrap">{m.since}</td>
                    <td>
                      {self && !soleOwner ? (
                        <ConfirmButton
                          label={t('organisations.members.leave')}
                          confirm={t('organisations.members.confirmLeave', { name: org.name })}
                          pending={remove.isPending}
                          onConfirm={() => remove.mutate(m.account_id)}
                        />
                      ) : manageable ? (
                        <ConfirmButton
                          label={t('organisations.members.remove')}
                          confirm={t('organisations.members.confirmRemove', { member: m.username, name: org.name })}
                          pending={remove.isPending}
                          onConfirm={() => remove.mutate(m.account_id)}
                        />
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </Card>
  );
}

function Invitations({ org }: { org: OrganisationWire }) {
  const { t } = useTranslation();
  const invitations = useOrganisationInvitations(org.id, true);
  const invite = useInvite(org.id);
  const withdraw = useWithdrawInvitation(org.id);
  const [form, setForm] = useState<{ who: string; role: OrgRole }>({ who: '', role: 'viewer' });
  const [sent, setSent] = useState<{ email: string; role: OrgRole; expires: string } | null>(null);
  const grantable = ORG_ROLES.filter((r) => roleAtLeast(org.role, r));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const who = form.who.trim();
    invite.mutate(who.includes('@') ? { email: who, role: form.role } : { username: who, role: form.role }, {
      onSuccess: (i) => {
        setSent({ email: i.email, role: i.role, expires: i.expires });
        setForm({ who: '', role: form.role });
      },
    });
  };
  return (
    <Card title={t('organisations.invitations.title')} id="org-invitations">
      <form onSubmit={submit} noValidate className="grid-form">
        <TextField
          label={t('organisations.invitations.who')}
          required
          value={form.who}
          onChange={(e) => setForm({ ...form, who: e.target.value })}
          hint={t('organisations.invitations.whoHint')}
          error={fieldError(invite.error, 'email') ?? fieldError(invite.error, 'username')}
        />
        <SelectField
          label={t('organisations.invitations.role')}
          value={form.role}
          options={grantable.map((r) => ({ value: r, label: t(`organisations.roleText.${r}`) }))}
          onChange={(e) => setForm({ ...form, role: e.target.value as OrgRole })}
          error={fieldError(invite.error, 'role')}
        />
        <ErrorBox error={invite.error && !fieldError(invite.error, 'email') && !fieldError(invite.error, 'username') ? invite.error : null} />
        {sent ? (
          <p role="status" className="notice">
            {t('organisations.invitations.sent', { email: sent.email, role: t(`organisations.role.${sent.role}`), expires: sent.expires })}
          </p>
        ) : null}
        <div>
          <button type="submit" className="primary" disabled={invite.isPending}>
            {t('organisations.invitations.submit')}
          </button>
        </div>
      </form>
      <ErrorBox error={invitations.error ?? withdraw.error} />
      {invitations.data && invitations.data.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table static">
            <TableHead
              caption={t('organisations.invitations.caption')}
              columns={[
                t('organisations.invitations.address'),
                t('organisations.invitations.role'),
                t('organisations.invitations.invitedBy'),
                t('organisations.invitations.until'),
              ]}
              actions={t('organisations.actions')}
              captionShown
            />
            <tbody>
              {invitations.data.map((i) => (
                <tr key={i.uid} data-invitation={i.email}>
                  <td>{i.email}</td>
                  <td>{t(`organisations.role.${i.role}`)}</td>
                  <td>{i.invited_by ?? '–'}</td>
                  <td className="nowrap">{i.expires}</td>
                  <td>
                    <ConfirmButton
                      label={t('organisations.invitations.withdraw')}
                      confirm={t('organisations.invitations.confirmWithdraw', { email: i.email })}
                      pending={withdraw.isPending}
                      onConfirm={() => withdraw.mutate(i.uid)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Card>
  );
}

function Settings({ org }: { org: OrganisationWire }) {
  const { t } = useTranslation();
  const me = useSession().data;
  const update = useUpdateOrganisation(org.id);
  const remove = useDeleteOrganisation(org.id);
  const [, navigate] = useLocation();
  const [form, setForm] = useState({ name: org.name, fullname: org.fullname });
  const [fate, setFate] = useState<'hand_over' | 'delete'>('hand_over');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ ...(form.name !== org.name ? { name: form.name.trim() } : {}), fullname: form.fullname.trim() });
  };
  return (
    <Card title={t('organisations.settings.title')} id="org-settings">
      <form onSubmit={submit} noValidate className="grid-form">
        <TextField
          label={t('organisations.settings.name')}
          pattern={ORGANISATION_NAME_PATTERN.source}
          minLength={ORGANISATION_NAME_MIN_LENGTH}
          maxLength={ORGANISATION_NAME_MAX_LENGTH}
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          hint={t('organisations.settings.nameHint')}
          error={fieldError(update.error, 'name')}
        />
        <TextField
          label={t('organisations.settings.fullname')}
          maxLength={200}
          value={form.fullname}
          onChange={(e) => setForm({ ...form, fullname: e.target.value })}
        />
        <div>
          <button type="submit" disabled={update.isPending}>
            {t('organisations.settings.save')}
          </button>
        </div>
      </form>
      {org.role === 'owner' ? (
        <div className="danger-zone">
          <h3>{t('organisations.settings.deleteTitle')}</h3>
          <SelectField
            label={t('organisations.settings.devices')}
            value={fate}
            options={[
              { value: 'hand_over', label: t('organisations.settings.handOver', { username: me?.username ?? '' }) },
              { value: 'delete', label: t('organisations.settings.deleteDevices') },
            ]}
            onChange={(e) => setFate(e.target.value as 'hand_over' | 'delete')}
          />
          <ErrorBox error={remove.error} />
          <ConfirmButton
            label={t('organisations.settings.delete')}
            confirm={t(fate === 'delete' ? 'organisations.settings.confirmDeleteWithDevices' : 'organisations.settings.confirmDelete', { name: org.name })}
            pending={remove.isPending}
            onConfirm={() =>
              remove.mutate(fate === 'delete' ? { devices: 'delete' } : { devices: 'hand_over', to: me?.username ?? '' }, {
                onSuccess: () => navigate('/organisations'),
              })
            }
          />
        </div>
      ) : null}
    </Card>
  );
}
