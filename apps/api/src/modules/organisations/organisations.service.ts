import { Inject, Injectable } from '@nestjs/common';
import {
  type AdminAccountDeletedWire,
  formatDate,
  type InvitationAcceptedWire,
  type InvitationDeclinedWire,
  type InvitationWithdrawnWire,
  type MemberRemovedWire,
  type InvitationWire,
  MAX_OWNED_ORGANISATIONS,
  type MemberWire,
  type OrganisationWire,
  type OrgRole,
  roleAtLeast,
} from '@dts/domain';
import { AccountsRepository, type Membership, type MemberChangeResult, OrganisationsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CredentialRevocations } from '../../common/auth/credential-revocations';
import { ApiException } from '../../common/http/api.exception';
import { AuthService } from '../auth/auth.service';
import type { AdminAccountDeleteQueryDto } from '../auth/dto/account-deletion.dto';
import type { AddMemberDto, CreateOrganisationDto, InviteDto, UpdateMemberDto, UpdateOrganisationDto } from './dto/organisation.dto';
import { toInvitationWire, toMemberWire, toOrganisationWire } from './organisation.mapper';

/**
 * Organisations, members and invitations (docs/api.md §20). Every call here acts as the person
 * (the routes are personal: an organisation's key cannot manage members), names the organisation
 * in its path, and is answered 404 for one the person is not a member of, as another account's
 * objects are. Who may do what:
 * - any member reads the organisation and its members, and may leave it;
 * - admins and owners rename it, invite, withdraw invitations and manage members whose role and
 *   new role are at most their own (an admin cannot touch an owner, nor make one);
 * - owners delete it. An organisation never loses its last owner (409 LAST_OWNER).
 */
@Injectable()
export class OrganisationsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly organisations: OrganisationsRepository,
    private readonly accounts: AccountsRepository,
    private readonly auth: AuthService,
    private readonly revocations: CredentialRevocations,
    private readonly jobs: JobQueue,
  ) {}

  async list(me: AuthPrincipal): Promise<OrganisationWire[]> {
    return (await this.organisations.listFor(me.userId)).map(toOrganisationWire);
  }

  /** A new organisation, the caller its owner, on the plan a new account gets (no more than registering another account would give). */
  async create(me: AuthPrincipal, dto: CreateOrganisationDto): Promise<OrganisationWire> {
    const created = await this.organisations.create({
      ownerId: me.userId,
      name: dto.name,
      fullname: dto.fullname ?? '',
      maxDevices: this.config.accounts.maxDevices,
      expiresOn: formatDate(new Date(Date.now() + this.config.accounts.expirationDays * 86_400_000)),
      ownedLimit: MAX_OWNED_ORGANISATIONS,
    });
    if (!created.ok) {
      throw created.reason === 'name'
        ? ApiException.of('USERNAME_TAKEN', 'this name is taken by an account or an organisation', 'name')
        : ApiException.of('ORGANISATION_LIMIT_REACHED', `a person owns at most ${MAX_OWNED_ORGANISATIONS} organisations`);
    }
    return this.get(me, created.id);
  }

  async get(me: AuthPrincipal, uid: number): Promise<OrganisationWire> {
    const row = await this.organisations.get(uid, me.userId);
    if (!row) throw ApiException.notFound('organisation', 'uid');
    return toOrganisationWire(row);
  }

  async update(me: AuthPrincipal, uid: number, dto: UpdateOrganisationDto): Promise<OrganisationWire> {
    await this.requireRole(me, uid, 'admin');
    if (!(await this.organisations.update(uid, dto))) throw ApiException.of('USERNAME_TAKEN', 'this name is taken by an account or an organisation', 'name');
    // Keys of it carry its name in their cached credential.
    await this.revocations.announce(uid);
    return this.get(me, uid);
  }

  /**
   * The organisation and everything it owns, as an administrator deletes an account: its devices
   * deleted, or handed to the caller's own account or another organisation the caller operates in.
   */
  async delete(me: AuthPrincipal, uid: number, query: AdminAccountDeleteQueryDto): Promise<AdminAccountDeletedWire> {
    await this.requireRole(me, uid, 'owner');
    if (query.devices !== 'hand_over' && query.to !== undefined) throw ApiException.validation('to', 'to goes with devices=hand_over');
    let receiver: number | null = null;
    if (query.devices === 'hand_over') {
      const to = query.to!;
      const own = (await this.accounts.findById(me.userId))!;
      if (to.toLowerCase() === own.usernameKey) receiver = own.id;
      else {
        const membership = await this.organisations.membership(to, me.userId);
        if (!membership || !roleAtLeast(membership.role, 'operator')) throw ApiException.notFound('account', 'to');
        receiver = membership.organisationId;
      }
      if (receiver === uid) throw ApiException.validation('to', 'the devices must go to another account than the one deleted');
    }
    const outcome = await this.auth.removeAccount(uid, receiver === null ? null : { accountId: receiver, field: 'to' });
    return { id: uid, deleted: true, devices_deleted: outcome.deleted, devices_handed_over: outcome.handedOver, to: receiver };
  }

  async members(me: AuthPrincipal, uid: number): Promise<MemberWire[]> {
    await this.requireRole(me, uid, 'viewer');
    return (await this.organisations.members(uid)).map(toMemberWire);
  }

  /** Invites an account by its username: to its verified address, as POST /org/{uid}/invitation does. */
  async addMember(me: AuthPrincipal, uid: number, dto: AddMemberDto): Promise<InvitationWire> {
    const mine = await this.requireRole(me, uid, 'admin');
    const account = await this.accounts.findByUsername(dto.username);
    if (!account || account.kind !== 'person') throw ApiException.notFound('account', 'username');
    if (account.emailVerifiedAt === null) {
      throw ApiException.validation('username', 'this account has not verified its e-mail address: it cannot be invited yet');
    }
    return this.invitation(me, mine, dto.role, account.emailKey);
  }

  async invite(me: AuthPrincipal, uid: number, dto: InviteDto): Promise<InvitationWire> {
    const mine = await this.requireRole(me, uid, 'admin');
    return this.invitation(me, mine, dto.role, dto.email.toLowerCase());
  }

  async invitationsOf(me: AuthPrincipal, uid: number): Promise<InvitationWire[]> {
    await this.requireRole(me, uid, 'admin');
    return (await this.organisations.invitationsOf(uid)).map(toInvitationWire);
  }

  async withdraw(me: AuthPrincipal, uid: number, invitation: number): Promise<InvitationWithdrawnWire> {
    await this.requireRole(me, uid, 'admin');
    if (!(await this.organisations.withdraw(uid, invitation))) throw ApiException.notFound('invitation', 'invitation');
    return { uid: invitation, withdrawn: true };
  }

  async updateMember(me: AuthPrincipal, uid: number, account: number, dto: UpdateMemberDto): Promise<MemberWire> {
    const mine = await this.requireRole(me, uid, 'admin');
    const target = await this.memberOf(uid, account);
    if (!roleAtLeast(mine.role, target.role) || !roleAtLeast(mine.role, dto.role)) {
      throw ApiException.of(
        'ROLE_REQUIRED',
        `an ${mine.role} cannot give or take the ${roleAtLeast(dto.role, target.role) ? dto.role : target.role} role`,
        'role',
      );
    }
    this.changed(await this.organisations.setRole(uid, account, dto.role));
    await this.revocations.announce(uid);
    return this.memberOf(uid, account).then(toMemberWire);
  }

  /** Removes a member, or the caller leaves (any member may). */
  async removeMember(me: AuthPrincipal, uid: number, account: number): Promise<MemberRemovedWire> {
    if (account !== me.userId) {
      const mine = await this.requireRole(me, uid, 'admin');
      const target = await this.memberOf(uid, account);
      if (!roleAtLeast(mine.role, target.role)) throw ApiException.of('ROLE_REQUIRED', `an ${mine.role} cannot remove an ${target.role}`, 'account');
    } else {
      await this.requireRole(me, uid, 'viewer');
    }
    this.changed(await this.organisations.removeMember(uid, account));
    // Its sessions acting in the organisation and its keys of it stop, on every instance.
    await this.revocations.announce(uid);
    return { account_id: account, removed: true };
  }

  async invitationsFor(me: AuthPrincipal): Promise<InvitationWire[]> {
    return (await this.organisations.invitationsFor(me.userId)).map(toInvitationWire);
  }

  async accept(me: AuthPrincipal, invitation: number): Promise<InvitationAcceptedWire> {
    const accepted = await this.organisations.accept(invitation, me.userId);
    if (!accepted.ok) throw ApiException.notFound('invitation', 'uid');
    return { organisation_id: accepted.organisationId, role: accepted.role };
  }

  async decline(me: AuthPrincipal, invitation: number): Promise<InvitationDeclinedWire> {
    if (!(await this.organisations.decline(invitation, me.userId))) throw ApiException.notFound('invitation', 'uid');
    return { uid: invitation, declined: true };
  }

  /** The caller's membership, at least `needed`; 404 for a non-member (as for another account's object), 403 below the role. */
  async requireRole(me: AuthPrincipal, uid: number, needed: OrgRole): Promise<Membership> {
    // Digits are an id to the look-up (no organisation's name is only digits).
    const membership = await this.organisations.membership(String(uid), me.userId);
    if (!membership || membership.organisationId !== uid) throw ApiException.notFound('organisation', 'uid');
    if (!roleAtLeast(membership.role, needed))
      throw ApiException.of('ROLE_REQUIRED', `this needs the ${needed} role in ${membership.name} (yours: ${membership.role})`);
    return membership;
  }

  private async memberOf(uid: number, account: number) {
    const member = (await this.organisations.members(uid)).find((m) => m.account_id === account);
    if (!member) throw ApiException.notFound('member', 'account');
    return member;
  }

  private changed(result: MemberChangeResult): void {
    if (result === 'not_member') throw ApiException.notFound('member', 'account');
    if (result === 'last_owner') throw ApiException.of('LAST_OWNER', 'an organisation keeps one owner at least: make another member owner first', 'account');
  }

  /** Stores the invitation and mails it, within the hourly invitation mails one address may get. */
  private async invitation(me: AuthPrincipal, mine: Membership, role: OrgRole, emailKey: string): Promise<InvitationWire> {
    if (!roleAtLeast(mine.role, role)) throw ApiException.of('ROLE_REQUIRED', `an ${mine.role} cannot invite an ${role}`, 'role');
    const { invitation, mailed } = await this.organisations.invite(
      mine.organisationId,
      emailKey,
      role,
      me.userId,
      this.config.mail.verificationsPerAddressPerHour,
    );
    if (mailed) {
      const base = this.config.publicBaseUrl;
      await this.jobs.enqueue('mail.send', {
        to: emailKey,
        subject: `You are invited to ${mine.name}`,
        text:
          `Hello,\n\n${me.username} invites you to the organisation ${mine.name} on the Device Telemetry Service, as ${role}.\n` +
          `Sign in with an account whose verified address is this one, then accept at ${base}/console/ ` +
          `or send POST ${base}/user/invitation/${invitation.uid}/accept.\n\n` +
          `The invitation is open until ${invitation.expires_at.toISOString().slice(0, 10)}. If you do not know ${mine.name}, ignore this message.\n`,
      });
    }
    return toInvitationWire(invitation);
  }
}
