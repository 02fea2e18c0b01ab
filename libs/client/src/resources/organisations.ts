import type {
  AddMemberRequest,
  AdminAccountDeletedWire,
  AdminAccountDeleteQuery,
  AuditEventWire,
  AuditPageMetaWire,
  AuditQuery,
  CreateOrganisationRequest,
  InvitationAcceptedWire,
  InvitationDeclinedWire,
  InvitationWire,
  InvitationWithdrawnWire,
  InviteRequest,
  MemberRemovedWire,
  MemberWire,
  OrganisationWire,
  UpdateMemberRequest,
  UpdateOrganisationRequest,
} from '@dts/domain';
import { ROUTES } from '../routes';
import type { Transport } from '../transport';
import { query } from './request-helpers';

/** Organisations the caller is a member of (docs/api.md §20); act in one with `client.with({ organisation })`. */
export const organisationsApi = (t: Transport) => ({
  list: () => t.data<OrganisationWire[]>(ROUTES.orgList),
  /** 201: the caller becomes its owner. */
  create: (body: CreateOrganisationRequest) => t.data<OrganisationWire>(ROUTES.orgCreate, { body }),
  get: (uid: number) => t.data<OrganisationWire>(ROUTES.orgGet, { params: { uid } }),
  update: (uid: number, body: UpdateOrganisationRequest) => t.data<OrganisationWire>(ROUTES.orgUpdate, { params: { uid }, body }),
  /** Owners: the organisation and what it owns; its devices deleted or handed to `to`. */
  delete: (uid: number, q: AdminAccountDeleteQuery) => t.data<AdminAccountDeletedWire>(ROUTES.orgDelete, { params: { uid }, query: query(q) }),
  members: (uid: number) => t.data<MemberWire[]>(ROUTES.orgMembers, { params: { uid } }),
  /** Invites an account by username (to its verified address): a member once it accepts. */
  addMember: (uid: number, body: AddMemberRequest) => t.data<InvitationWire>(ROUTES.orgAddMember, { params: { uid }, body }),
  updateMember: (uid: number, account: number, body: UpdateMemberRequest) => t.data<MemberWire>(ROUTES.orgUpdateMember, { params: { uid, account }, body }),
  /** Removes a member, or leaves with the caller's own account id. */
  removeMember: (uid: number, account: number) => t.data<MemberRemovedWire>(ROUTES.orgRemoveMember, { params: { uid, account } }),
  invitations: (uid: number) => t.data<InvitationWire[]>(ROUTES.orgInvitations, { params: { uid } }),
  invite: (uid: number, body: InviteRequest) => t.data<InvitationWire>(ROUTES.orgInvite, { params: { uid }, body }),
  withdrawInvitation: (uid: number, invitation: number) => t.data<InvitationWithdrawnWire>(ROUTES.orgWithdrawInvitation, { params: { uid, invitation } }),
  /** The organisation's audit log (admins and owners), a page at a time. */
  audit: async (uid: number, q: Omit<AuditQuery, 'format'> = {}) => {
    const res = await t.request<AuditEventWire[], AuditPageMetaWire>(ROUTES.orgAudit, { params: { uid }, query: query(q) });
    return { events: res.data, meta: res.meta };
  },
});

/** Invitations to the caller's verified address. */
export const invitationsApi = (t: Transport) => ({
  list: () => t.data<InvitationWire[]>(ROUTES.invitationsList),
  accept: (uid: number) => t.data<InvitationAcceptedWire>(ROUTES.invitationsAccept, { params: { uid } }),
  decline: (uid: number) => t.data<InvitationDeclinedWire>(ROUTES.invitationsDecline, { params: { uid } }),
});
