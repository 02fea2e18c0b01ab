import { formatSqlTimestamp, type InvitationWire, type MemberWire, type OrganisationWire } from '@dts/domain';
import type { InvitationRow, MemberRow, OrganisationRow } from '@dts/persistence';

export function toOrganisationWire(row: OrganisationRow): OrganisationWire {
  return {
    id: row.id,
    name: row.name,
    fullname: row.fullname,
    role: row.role,
    members: row.members,
    devices: row.devices,
    max_devices: row.max_devices,
    expiration: row.expires_on,
    created: formatSqlTimestamp(row.created_at),
  };
}

export function toMemberWire(row: MemberRow): MemberWire {
  return { account_id: row.account_id, username: row.username, fullname: row.fullname, role: row.role, since: formatSqlTimestamp(row.created_at) };
}

export function toInvitationWire(row: InvitationRow): InvitationWire {
  return {
    uid: row.uid,
    organisation_id: row.organisation_id,
    organisation: row.organisation,
    email: row.email_key,
    role: row.role,
    invited_by: row.invited_by,
    created: formatSqlTimestamp(row.created_at),
    expires: formatSqlTimestamp(row.expires_at),
  };
}
