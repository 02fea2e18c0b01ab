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
import { OrganisationAudit } from './AuditLog';

/** What each role may do, as docs/api.md §20 says: shown where a role is chosen. */
export const ROLE_TEXT: Record<OrgRole, string> = {
  viewer: 'Viewer: reads everything, changes nothing',
  operator: 'Operator: also works devices, commands, codecs, fences, rules and images',
  admin: 'Admin: also manages members, keys, integrations and networks',
  owner: 'Owner: also deletes the organisation',
};

/** The button that makes the console act in an organisation (or in the person's own account). */
function ActInButton({ name }: { name: string | null }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const acting = useActingOrganisation();
  if ((acting?.toLowerCase() ?? null) === (name?.toLowerCase() ?? null)) return <span className="badge badge-ok">Acting here</span>;
  return (
    <button
      type="button"
      className="small"
      onClick={() => {
        switchOrganisation(client, name);
        navigate('/');
      }}
    >
      {name === null ? 'Act in your own account' : `Act in ${name}`}
    </button>
  );
}

/** Invitations to the person, their organisations, and a new one. */
export function OrganisationsPage() {
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
      <PageHeader
        title="Organisations"
        subtitle="Share a fleet with a team: each member acts in the organisation with a role, with their own password and keys."
        actions={acting !== null ? <ActInButton name={null} /> : undefined}
      />
      {open.length > 0 ? (
        <Card title="Invitations to you" id="invitations">
          <ErrorBox error={answer.error} />
          <ul className="plain-list">
            {open.map((i) => (
              <li key={i.uid} data-invitation={i.uid}>
                <span>
                  <strong>{i.organisation}</strong> invites you as <strong>{i.role}</strong>
                  {i.invited_by ? ` (from ${i.invited_by})` : ''}, open until {i.expires} UTC.
                </span>{' '}
                <button type="button" className="primary small" disabled={answer.isPending} onClick={() => answer.mutate({ uid: i.uid, accept: true })}>
                  Accept
                </button>{' '}
                <button type="button" className="ghost small" disabled={answer.isPending} onClick={() => answer.mutate({ uid: i.uid, accept: false })}>
                  Decline
                </button>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card title="Your organisations" id="organisations">
        {organisations.isPending ? <Loading what="Loading organisations" /> : null}
        <ErrorBox error={organisations.error} />
        {organisations.data && organisations.data.length === 0 ? <Empty>You are in no organisation yet: create one, or accept an invitation.</Empty> : null}
        {organisations.data && organisations.data.length > 0 ? (
          <div className="table-scroll">
            <table className="data-table static">
              <caption className="sr-only">Your organisations</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Your role</th>
                  <th scope="col">Members</th>
                  <th scope="col">Devices</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {organisations.data.map((o) => (
                  <tr key={o.id} data-organisation={o.name}>
                    <td>
                      <Link href={`/organisations/${o.id}`}>{o.name}</Link>
                      {o.fullname ? <span className="muted"> {o.fullname}</span> : null}
                    </td>
                    <td>{o.role}</td>
                    <td>{o.members}</td>
                    <td>
                      {o.devices} of {o.max_devices}
                    </td>
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
      <Card title="Create an organisation" id="create-organisation">
        <form onSubmit={submit} noValidate className="grid-form">
          <TextField
            label="Name"
            required
            pattern={ORGANISATION_NAME_PATTERN.source}
            minLength={ORGANISATION_NAME_MIN_LENGTH}
            maxLength={ORGANISATION_NAME_MAX_LENGTH}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            hint="3 to 64 of A–Z a–z 0–9 . _ -, not only digits, unique among organisations and usernames."
            error={fieldError(create.error, 'name')}
          />
          <TextField label="Shown name (optional)" maxLength={200} value={form.fullname} onChange={(e) => setForm({ ...form, fullname: e.target.value })} />
          <ErrorBox error={create.error && !fieldError(create.error, 'name') ? create.error : null} />
          <div>
            <button type="submit" className="primary" disabled={create.isPending}>
              Create organisation
            </button>
          </div>
        </form>
      </Card>
    </>
  );
}

/** One organisation: its members and their roles, invitations, audit log and settings, each shown to the roles that may use it. */
export function OrganisationPage({ id }: { id: string }) {
  const uid = Number(id);
  const organisations = useOrganisations();
  const org = organisations.data?.find((o) => o.id === uid);
  if (organisations.isPending) return <Loading what="Loading the organisation" />;
  if (!org)
    return (
      <section className="card">
        <h1>Organisation not found</h1>
        <p>
          You are not a member of it. <Link href="/organisations">Your organisations</Link>
        </p>
      </section>
    );
  const admin = roleAtLeast(org.role, 'admin');
  return (
    <>
      <PageHeader
        title={org.name}
        subtitle={`${org.fullname ? `${org.fullname}. ` : ''}Your role: ${org.role}. ${org.devices} of ${org.max_devices} devices, plan until ${org.expiration}.`}
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
  const me = useSession().data;
  const members = useMembers(org.id);
  const setRole = useSetRole(org.id);
  const remove = useRemoveMember(org.id, me?.id);
  const admin = roleAtLeast(org.role, 'admin');
  const grantable = ORG_ROLES.filter((r) => roleAtLeast(org.role, r));
  return (
    <Card title="Members" id="members">
      {members.isPending ? <Loading what="Loading members" /> : null}
      <ErrorBox error={members.error ?? setRole.error ?? remove.error} />
      {members.data ? (
        <div className="table-scroll">
          <table className="data-table static">
            <caption className="sr-only">Members of {org.name}</caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col">Since (UTC)</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
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
                      {self ? <span className="muted"> (you)</span> : null}
                    </td>
                    <td>
                      {manageable ? (
                        <select
                          aria-label={`Role of ${m.username}`}
                          value={m.role}
                          disabled={setRole.isPending}
                          onChange={(e) => setRole.mutate({ account: m.account_id, role: e.target.value as OrgRole })}
                        >
                          {grantable.map((r) => (
                            <option key={r} value={r}>
                              {r}
                            </option>
                          ))}
                        </select>
                      ) : (
                        m.role
                      )}
                    </td>
                    <td className="nowrap">{m.since}</td>
                    <td>
                      {self && !soleOwner ? (
                        <ConfirmButton
                          label="Leave"
                          confirm={`Leave ${org.name}? You lose access to its devices, and your keys of it stop.`}
                          pending={remove.isPending}
                          onConfirm={() => remove.mutate(m.account_id)}
                        />
                      ) : manageable ? (
                        <ConfirmButton
                          label="Remove"
                          confirm={`Remove ${m.username} from ${org.name}? Their keys of it stop at once.`}
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
  const invitations = useOrganisationInvitations(org.id, true);
  const invite = useInvite(org.id);
  const withdraw = useWithdrawInvitation(org.id);
  const [form, setForm] = useState<{ who: string; role: OrgRole }>({ who: '', role: 'viewer' });
  const [sent, setSent] = useState<string | null>(null);
  const grantable = ORG_ROLES.filter((r) => roleAtLeast(org.role, r));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const who = form.who.trim();
    invite.mutate(who.includes('@') ? { email: who, role: form.role } : { username: who, role: form.role }, {
      onSuccess: (i) => {
        setSent(`${i.email} is invited as ${i.role}, until ${i.expires} UTC.`);
        setForm({ who: '', role: form.role });
      },
    });
  };
  return (
    <Card title="Invitations" id="org-invitations">
      <form onSubmit={submit} noValidate className="grid-form">
        <TextField
          label="E-mail address or username"
          required
          value={form.who}
          onChange={(e) => setForm({ ...form, who: e.target.value })}
          hint="They become a member when they accept, signed in with that verified address."
          error={fieldError(invite.error, 'email') ?? fieldError(invite.error, 'username')}
        />
        <SelectField
          label="Role"
          value={form.role}
          options={grantable.map((r) => ({ value: r, label: ROLE_TEXT[r] }))}
          onChange={(e) => setForm({ ...form, role: e.target.value as OrgRole })}
          error={fieldError(invite.error, 'role')}
        />
        <ErrorBox error={invite.error && !fieldError(invite.error, 'email') && !fieldError(invite.error, 'username') ? invite.error : null} />
        {sent ? (
          <p role="status" className="notice">
            {sent}
          </p>
        ) : null}
        <div>
          <button type="submit" className="primary" disabled={invite.isPending}>
            Invite
          </button>
        </div>
      </form>
      <ErrorBox error={invitations.error ?? withdraw.error} />
      {invitations.data && invitations.data.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table static">
            <caption>Open invitations</caption>
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">Role</th>
                <th scope="col">Invited by</th>
                <th scope="col">Open until (UTC)</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invitations.data.map((i) => (
                <tr key={i.uid} data-invitation={i.email}>
                  <td>{i.email}</td>
                  <td>{i.role}</td>
                  <td>{i.invited_by ?? '–'}</td>
                  <td className="nowrap">{i.expires}</td>
                  <td>
                    <ConfirmButton
                      label="Withdraw"
                      confirm={`Withdraw the invitation to ${i.email}?`}
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
    <Card title="Settings" id="org-settings">
      <form onSubmit={submit} noValidate className="grid-form">
        <TextField
          label="Name"
          pattern={ORGANISATION_NAME_PATTERN.source}
          minLength={ORGANISATION_NAME_MIN_LENGTH}
          maxLength={ORGANISATION_NAME_MAX_LENGTH}
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          hint="Keys keep working under a new name."
          error={fieldError(update.error, 'name')}
        />
        <TextField label="Shown name" maxLength={200} value={form.fullname} onChange={(e) => setForm({ ...form, fullname: e.target.value })} />
        <div>
          <button type="submit" disabled={update.isPending}>
            Save
          </button>
        </div>
      </form>
      {org.role === 'owner' ? (
        <div className="danger-zone">
          <h3>Delete the organisation</h3>
          <SelectField
            label="Its devices"
            value={fate}
            options={[
              { value: 'hand_over', label: `Hand them to your own account (${me?.username ?? ''}), within its device limit` },
              { value: 'delete', label: 'Delete them with their data' },
            ]}
            onChange={(e) => setFate(e.target.value as 'hand_over' | 'delete')}
          />
          <ErrorBox error={remove.error} />
          <ConfirmButton
            label="Delete organisation"
            confirm={`Delete ${org.name}, its codecs, networks, fences, rules, integrations and keys${fate === 'delete' ? ', and its devices' : ''}?`}
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
