import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { INVITATION_DAYS, type OrgRole } from '@dts/domain';
import { DataSource, type EntityManager } from 'typeorm';
import { hourWindow, takeMailPlaces } from '../mail/mail-counts';
import { onlyRow, returningRows } from '../sql/sql-results';
import { statement, Statements } from '../sql/statements';

/** An organisation as one member sees it. */
export interface OrganisationRow {
  id: number;
  name: string;
  fullname: string;
  role: OrgRole;
  members: number;
  devices: number;
  max_devices: number;
  expires_on: string;
  created_at: Date;
}

export interface MemberRow {
  account_id: number;
  username: string;
  fullname: string;
  role: OrgRole;
  created_at: Date;
}

export interface InvitationRow {
  uid: number;
  organisation_id: number;
  organisation: string;
  email_key: string;
  role: OrgRole;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
}

/** The organisation a request names and the caller's role in it. */
export interface Membership {
  organisationId: number;
  name: string;
  role: OrgRole;
}

export interface NewOrganisation {
  ownerId: number;
  name: string;
  fullname: string;
  maxDevices: number;
  /** YYYY-MM-DD */
  expiresOn: string;
  /** Organisations one person may own. */
  ownedLimit: number;
}

export type CreateOrganisationResult = { ok: true; id: number } | { ok: false; reason: 'name' | 'limit' };
/** A change of members that would leave the organisation without an owner is refused. */
export type MemberChangeResult = 'ok' | 'not_member' | 'last_owner';
export type InvitationAcceptResult = { ok: true; organisationId: number; role: OrgRole } | { ok: false };

/**
 * On every request that names an organisation, with the caller's role: digits are its id, anything
 * else its name (case-insensitive; no organisation's name is only digits, so the two never meet);
 * a disabled organisation is none.
 */
const MEMBERSHIP = statement(
  'organisation_membership',
  `SELECT a.id AS "organisationId", a.username AS name, m.role
   FROM accounts a JOIN organisation_members m ON m.organisation_id = a.id AND m.account_id = $2
   WHERE a.kind = 'organisation' AND a.active = 1
     AND CASE WHEN $1 ~ '^[0-9]{1,10}$' THEN a.id = $1::int ELSE a.username_key = lower($1) END`,
);

const ORGANISATION_COLUMNS = `a.id, a.username AS name, a.fullname, m.role,
  (SELECT count(*)::int FROM organisation_members x WHERE x.organisation_id = a.id) AS members,
  (SELECT count(*)::int FROM devices d WHERE d.owner_id = a.id AND d.deleted_at IS NULL) AS devices,
  a.max_devices, to_char(a.expires_on, 'YYYY-MM-DD') AS expires_on, a.created_at`;

const INVITATION_COLUMNS = `i.uid, i.organisation_id, o.username AS organisation, i.email_key, i.role, b.username AS invited_by, i.created_at, i.expires_at`;
const INVITATION_FROM = `organisation_invitations i JOIN accounts o ON o.id = i.organisation_id LEFT JOIN accounts b ON b.id = i.invited_by`;

/**
 * An invitation stands while its inviter is still a member with the role it offers at least: one
 * made by an admin since removed or lowered offers nothing (roles ranked as ORG_ROLES).
 */
const INVITER_HOLDS = `EXISTS (SELECT 1 FROM organisation_members w WHERE w.organisation_id = i.organisation_id AND w.account_id = i.invited_by
  AND array_position(ARRAY['viewer','operator','admin','owner'], w.role) >= array_position(ARRAY['viewer','operator','admin','owner'], i.role))`;

/**
 * Organisations, their members and invitations (docs/api.md §20). An organisation is a row of
 * `accounts` of kind 'organisation' (migration 1795850000000): what it owns hangs off its id as a
 * person's objects hang off theirs. Changes of owners lock the organisation's row, so that two
 * concurrent changes cannot together leave it without one.
 */
@Injectable()
export class OrganisationsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly statements: Statements,
  ) {}

  /** The caller's role in the organisation named `ref` (its name or id); null when not a member or no such organisation. */
  async membership(ref: string, accountId: number): Promise<Membership | null> {
    const rows = await this.statements.rows<Membership>(MEMBERSHIP, [ref, accountId]);
    return rows[0] ?? null;
  }

  /**
   * A new organisation with `ownerId` as its owner, unless the name is taken (by an account or an
   * organisation: one namespace) or the owner owns `ownedLimit` already.
   */
  async create(input: NewOrganisation): Promise<CreateOrganisationResult> {
    return this.ds.transaction(async (m) => {
      await m.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [input.ownerId]);
      const [{ n }] = (await m.query(`SELECT count(*)::int AS n FROM organisation_members WHERE account_id = $1 AND role = 'owner'`, [input.ownerId])) as [
        { n: number },
      ];
      if (n >= input.ownedLimit) return { ok: false as const, reason: 'limit' as const };
      const key = input.name.toLowerCase();
      // '#' is in no username and no address: the organisation's e-mail key matches no sign-in.
      const inserted = await returningRows<{ id: number }>(
        m,
        `INSERT INTO accounts (username, username_key, email, email_key, fullname, password_hash, groupid, kind, max_devices, expires_on, active, consent)
         VALUES ($1, $2, '', '#' || $2, $3, '', 2, 'organisation', $4, $5, 1, 0)
         ON CONFLICT DO NOTHING RETURNING id`,
        [input.name, key, input.fullname, input.maxDevices, input.expiresOn],
      );
      const id = inserted[0]?.id;
      if (id === undefined) return { ok: false as const, reason: 'name' as const };
      await m.query(`INSERT INTO organisation_members (organisation_id, account_id, role) VALUES ($1, $2, 'owner')`, [id, input.ownerId]);
      return { ok: true as const, id: Number(id) };
    });
  }

  /** The organisations the account is a member of, by name. */
  async listFor(accountId: number): Promise<OrganisationRow[]> {
    return this.ds.query(
      `SELECT ${ORGANISATION_COLUMNS} FROM organisation_members m JOIN accounts a ON a.id = m.organisation_id
       WHERE m.account_id = $1 ORDER BY a.username_key`,
      [accountId],
    );
  }

  /** The organisation as its member `accountId` sees it; null when not a member. */
  async get(organisationId: number, accountId: number): Promise<OrganisationRow | null> {
    const rows: OrganisationRow[] = await this.ds.query(
      `SELECT ${ORGANISATION_COLUMNS} FROM organisation_members m JOIN accounts a ON a.id = m.organisation_id
       WHERE m.organisation_id = $1 AND m.account_id = $2`,
      [organisationId, accountId],
    );
    return rows[0] ?? null;
  }

  /** Renames it or sets its shown name; false when the new name is taken. */
  async update(organisationId: number, change: { name?: string; fullname?: string }): Promise<boolean> {
    const rows = await returningRows<{ id: number }>(
      this.ds,
      `UPDATE accounts SET username = coalesce($2, username), username_key = coalesce(lower($2), username_key),
         email_key = coalesce('#' || lower($2), email_key), fullname = coalesce($3, fullname)
       WHERE id = $1 AND kind = 'organisation'
         AND ($2::text IS NULL OR NOT EXISTS (SELECT 1 FROM accounts o WHERE o.username_key = lower($2) AND o.id <> $1))
       RETURNING id`,
      [organisationId, change.name ?? null, change.fullname ?? null],
    );
    return rows.length > 0;
  }

  async members(organisationId: number): Promise<MemberRow[]> {
    return this.ds.query(
      `SELECT m.account_id, a.username, a.fullname, m.role, m.created_at
       FROM organisation_members m JOIN accounts a ON a.id = m.account_id
       WHERE m.organisation_id = $1 ORDER BY a.username_key`,
      [organisationId],
    );
  }

  /** Gives a member another role; never takes the last owner's. */
  async setRole(organisationId: number, accountId: number, role: OrgRole): Promise<MemberChangeResult> {
    return this.ds.transaction(async (m) => {
      const check = await this.ownersCheck(m, organisationId, accountId);
      if (check !== 'ok' && !(check === 'last_owner' && role === 'owner')) return check;
      await m.query('UPDATE organisation_members SET role = $3 WHERE organisation_id = $1 AND account_id = $2', [organisationId, accountId, role]);
      return 'ok';
    });
  }

  /** Removes a member (or a member leaves); never the last owner. */
  async removeMember(organisationId: number, accountId: number): Promise<MemberChangeResult> {
    return this.ds.transaction(async (m) => {
      const check = await this.ownersCheck(m, organisationId, accountId);
      if (check !== 'ok') return check;
      await m.query('DELETE FROM organisation_members WHERE organisation_id = $1 AND account_id = $2', [organisationId, accountId]);
      // Keys the member made for the organisation stop with their membership.
      await m.query('DELETE FROM api_tokens WHERE account_id = $1 AND created_by = $2', [organisationId, accountId]);
      return 'ok';
    });
  }

  /** Locks the organisation and says whether `accountId` is a member whose owner role others also hold. */
  private async ownersCheck(m: EntityManager, organisationId: number, accountId: number): Promise<MemberChangeResult> {
    await m.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [organisationId]);
    const rows = (await m.query(
      `SELECT role, (SELECT count(*)::int FROM organisation_members o WHERE o.organisation_id = $1 AND o.role = 'owner') AS owners
       FROM organisation_members WHERE organisation_id = $1 AND account_id = $2`,
      [organisationId, accountId],
    )) as { role: OrgRole; owners: number }[];
    const row = rows[0];
    if (!row) return 'not_member';
    return row.role === 'owner' && row.owners <= 1 ? 'last_owner' : 'ok';
  }

  /**
   * Invites an address (lower-cased); inviting it again renews the invitation with the new role.
   * `mailed`: whether a mail may go to the address, under `mailsPerHour` invitation mails to one
   * address, whoever invites (counted in the same transaction: the limit holds under concurrency).
   */
  async invite(
    organisationId: number,
    emailKey: string,
    role: OrgRole,
    invitedBy: number,
    mailsPerHour: number,
  ): Promise<{ invitation: InvitationRow; mailed: boolean }> {
    return this.ds.transaction(async (m) => {
      const { uid } = onlyRow(
        await returningRows<{ uid: number }>(
          m,
          `INSERT INTO organisation_invitations (organisation_id, email_key, role, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(days => $5))
       ON CONFLICT (organisation_id, email_key) DO UPDATE SET role = EXCLUDED.role, invited_by = EXCLUDED.invited_by,
         created_at = now(), expires_at = EXCLUDED.expires_at
       RETURNING uid`,
          [organisationId, emailKey, role, invitedBy, INVITATION_DAYS],
        ),
      );
      const rows = (await m.query(`SELECT ${INVITATION_COLUMNS} FROM ${INVITATION_FROM} WHERE i.uid = $1`, [uid])) as InvitationRow[];
      const { taken } = await takeMailPlaces(m, [{ scope: 'invitation', key: emailKey, limit: mailsPerHour }], hourWindow(new Date()), 1);
      return { invitation: onlyRow(rows), mailed: taken > 0 };
    });
  }

  /** The organisation's open invitations, newest first. */
  async invitationsOf(organisationId: number): Promise<InvitationRow[]> {
    return this.ds.query(
      `SELECT ${INVITATION_COLUMNS} FROM ${INVITATION_FROM} WHERE i.organisation_id = $1 AND i.expires_at > now() ORDER BY i.created_at DESC, i.uid DESC`,
      [organisationId],
    );
  }

  /** Open invitations to the account's address, when it is verified (an unverified address is not proof of who reads it). */
  async invitationsFor(accountId: number): Promise<InvitationRow[]> {
    return this.ds.query(
      `SELECT ${INVITATION_COLUMNS} FROM ${INVITATION_FROM} JOIN accounts me ON me.id = $1
       WHERE i.email_key = me.email_key AND me.email_verified_at IS NOT NULL AND i.expires_at > now() AND ${INVITER_HOLDS}
       ORDER BY i.created_at DESC, i.uid DESC`,
      [accountId],
    );
  }

  /** Takes up an invitation to the account's verified address: the account becomes a member (one it is already keeps its role). */
  async accept(uid: number, accountId: number): Promise<InvitationAcceptResult> {
    return this.ds.transaction(async (m) => {
      const taken = await returningRows<{ organisation_id: number; role: OrgRole }>(
        m,
        `DELETE FROM organisation_invitations i USING accounts me
         WHERE i.uid = $1 AND me.id = $2 AND i.email_key = me.email_key AND me.email_verified_at IS NOT NULL AND i.expires_at > now()
           AND ${INVITER_HOLDS}
         RETURNING i.organisation_id, i.role`,
        [uid, accountId],
      );
      const invitation = taken[0];
      if (!invitation) return { ok: false as const };
      await m.query(`INSERT INTO organisation_members (organisation_id, account_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
        invitation.organisation_id,
        accountId,
        invitation.role,
      ]);
      const [{ role }] = (await m.query('SELECT role FROM organisation_members WHERE organisation_id = $1 AND account_id = $2', [
        invitation.organisation_id,
        accountId,
      ])) as [{ role: OrgRole }];
      return { ok: true as const, organisationId: invitation.organisation_id, role };
    });
  }

  /** Declines an invitation to the account's verified address; false when there is none. */
  async decline(uid: number, accountId: number): Promise<boolean> {
    const rows = await returningRows<{ uid: number }>(
      this.ds,
      `DELETE FROM organisation_invitations i USING accounts me
       WHERE i.uid = $1 AND me.id = $2 AND i.email_key = me.email_key AND me.email_verified_at IS NOT NULL
       RETURNING i.uid`,
      [uid, accountId],
    );
    return rows.length > 0;
  }

  /** Withdraws an open invitation of the organisation; false when there is none. */
  async withdraw(organisationId: number, uid: number): Promise<boolean> {
    const rows = await returningRows<{ uid: number }>(this.ds, 'DELETE FROM organisation_invitations WHERE organisation_id = $1 AND uid = $2 RETURNING uid', [
      organisationId,
      uid,
    ]);
    return rows.length > 0;
  }

  /**
   * Makes the account a member of the organisation named `name` with `role`, or gives a member that
   * role (an OpenID provider's role claim, at each sign-in), never taking the last owner's. Answers
   * its id; null when there is no such active organisation or the change would leave it ownerless.
   */
  async grantByName(name: string, accountId: number, role: OrgRole): Promise<number | null> {
    return this.ds.transaction(async (m) => {
      const [org] = (await m.query(`SELECT id FROM accounts WHERE username_key = lower($1) AND kind = 'organisation' AND active = 1 FOR UPDATE`, [name])) as {
        id: number;
      }[];
      if (!org) return null;
      const check = await this.ownersCheck(m, org.id, accountId);
      if (check === 'last_owner' && role !== 'owner') return null;
      await m.query(
        `INSERT INTO organisation_members (organisation_id, account_id, role) VALUES ($1, $2, $3)
         ON CONFLICT (organisation_id, account_id) DO UPDATE SET role = EXCLUDED.role`,
        [org.id, accountId, role],
      );
      return org.id;
    });
  }

  /**
   * Before an account is deleted: its memberships end, unless it is some organisation's only owner
   * (answered: those organisations' names, nothing changed). The organisations it owns are locked
   * while this is decided, so that two co-owners deleting their accounts at once cannot both pass.
   */
  async leaveAllUnlessSoleOwner(accountId: number): Promise<string[]> {
    return this.ds.transaction(async (m) => {
      await m.query(
        `SELECT a.id FROM accounts a JOIN organisation_members m ON m.organisation_id = a.id
         WHERE m.account_id = $1 AND m.role = 'owner' ORDER BY a.id FOR UPDATE OF a`,
        [accountId],
      );
      const sole = await this.soleOwnerOf(accountId, m);
      if (sole.length > 0) return sole;
      await m.query('DELETE FROM organisation_members WHERE account_id = $1', [accountId]);
      return [];
    });
  }

  /** Organisations the account is the only owner of: deleting the account would leave them ownerless. */
  async soleOwnerOf(accountId: number, manager?: EntityManager): Promise<string[]> {
    const rows: { name: string }[] = await (manager ?? this.ds.manager).query(
      `SELECT a.username AS name FROM organisation_members m JOIN accounts a ON a.id = m.organisation_id
       WHERE m.account_id = $1 AND m.role = 'owner'
         AND NOT EXISTS (SELECT 1 FROM organisation_members o WHERE o.organisation_id = m.organisation_id AND o.role = 'owner' AND o.account_id <> $1)
       ORDER BY a.username_key`,
      [accountId],
    );
    return rows.map((r) => r.name);
  }
}
