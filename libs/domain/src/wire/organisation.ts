/**
 * Organisations (docs/api.md §20). An organisation is an account that people act in: it owns what
 * a person's account owns, and its members act in it with one role each.
 */

/** Roles, weakest first: each may do what the ones before it may. */
export const ORG_ROLES = ['viewer', 'operator', 'admin', 'owner'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** Whether `role` may do what `needed` may. */
export function roleAtLeast(role: OrgRole, needed: OrgRole): boolean {
  return ORG_ROLES.indexOf(role) >= ORG_ROLES.indexOf(needed);
}

/**
 * The header that names the organisation a signed-in request acts in (its name or id); without it
 * a session acts in the person's own account. An organisation's API key acts in its organisation.
 */
export const ORGANISATION_HEADER = 'X-Organisation';

/**
 * An organisation's name: a username (one namespace: 3-64 of A-Z a-z 0-9 . _ -) with a letter or a
 * sign in it, so that it never reads as an organisation's id where either may be given
 * (X-Organisation, `?organisation=`).
 */
export const ORGANISATION_NAME_PATTERN = /^[A-Za-z0-9._-]*[A-Za-z._-][A-Za-z0-9._-]*$/;
export const ORGANISATION_NAME_MIN_LENGTH = 3;
export const ORGANISATION_NAME_MAX_LENGTH = 64;

/** Days an invitation can be accepted. */
export const INVITATION_DAYS = 14;
/** Organisations one person may own, besides their own account. */
export const MAX_OWNED_ORGANISATIONS = 20;

/** GET /org, GET /org/{uid}: an organisation as one of its members sees it. */
export interface OrganisationWire {
  id: number;
  name: string;
  /** Shown name; '' when none. */
  fullname: string;
  /** The caller's role in it. */
  role: OrgRole;
  members: number;
  devices: number;
  max_devices: number;
  expiration: string;
  created: string;
}

/** GET /org/{uid}/member. */
export interface MemberWire {
  account_id: number;
  username: string;
  fullname: string;
  role: OrgRole;
  since: string;
}

/** GET /user/invitation, POST /org/{uid}/invitation. */
export interface InvitationWire {
  uid: number;
  organisation_id: number;
  organisation: string;
  email: string;
  role: OrgRole;
  invited_by: string | null;
  created: string;
  expires: string;
}

/** POST /user/invitation/{uid}/accept. */
export interface InvitationAcceptedWire {
  organisation_id: number;
  role: OrgRole;
}

/** POST /org. */
export interface CreateOrganisationRequest {
  name: string;
  fullname?: string;
}

/** PATCH /org/{uid}. */
export interface UpdateOrganisationRequest {
  name?: string;
  fullname?: string;
}

/** POST /org/{uid}/member: an invitation to the account's verified address. */
export interface AddMemberRequest {
  username: string;
  role: OrgRole;
}

/** POST /org/{uid}/invitation. */
export interface InviteRequest {
  email: string;
  role: OrgRole;
}

/** PATCH /org/{uid}/member/{account}. */
export interface UpdateMemberRequest {
  role: OrgRole;
}

/** DELETE /org/{uid}/member/{account}. */
export interface MemberRemovedWire {
  account_id: number;
  removed: true;
}

/** DELETE /org/{uid}/invitation/{invitation}. */
export interface InvitationWithdrawnWire {
  uid: number;
  withdrawn: true;
}

/** POST /user/invitation/{uid}/decline. */
export interface InvitationDeclinedWire {
  uid: number;
  declined: true;
}
