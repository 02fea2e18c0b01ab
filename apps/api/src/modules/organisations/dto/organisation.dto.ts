import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import {
  type AddMemberRequest,
  type CreateOrganisationRequest,
  type InvitationDeclinedWire,
  type InvitationWithdrawnWire,
  type InviteRequest,
  type MemberRemovedWire,
  type UpdateMemberRequest,
  type UpdateOrganisationRequest,
  type InvitationAcceptedWire,
  type InvitationWire,
  type MemberWire,
  ORG_ROLES,
  ORGANISATION_NAME_MAX_LENGTH,
  ORGANISATION_NAME_MIN_LENGTH,
  ORGANISATION_NAME_PATTERN,
  type OrganisationWire,
  type OrgRole,
  USERNAME_PATTERN,
} from '@dts/domain';

const NAME_MESSAGE = 'name must be 3-64 characters of A-Z a-z 0-9 . _ -, not only digits';
const ROLE_MESSAGE = `role must be one of ${ORG_ROLES.join(', ')}`;

export class CreateOrganisationDto implements CreateOrganisationRequest {
  @ApiProperty({
    example: 'acme-fleet',
    pattern: ORGANISATION_NAME_PATTERN.source,
    minLength: ORGANISATION_NAME_MIN_LENGTH,
    maxLength: ORGANISATION_NAME_MAX_LENGTH,
    description:
      'Unique case-insensitively among organisations and usernames (one namespace); what X-Organisation names. Not only digits: those name an organisation by its id.',
  })
  @IsString({ message: NAME_MESSAGE })
  @Length(ORGANISATION_NAME_MIN_LENGTH, ORGANISATION_NAME_MAX_LENGTH, { message: NAME_MESSAGE })
  @Matches(ORGANISATION_NAME_PATTERN, { message: NAME_MESSAGE })
  name!: string;

  @ApiPropertyOptional({ example: 'ACME fleet operations', maxLength: 200 })
  @IsOptional()
  @IsString({ message: 'fullname must be text' })
  @MaxLength(200)
  fullname?: string;
}

export class UpdateOrganisationDto implements UpdateOrganisationRequest {
  @ApiPropertyOptional({
    pattern: ORGANISATION_NAME_PATTERN.source,
    minLength: ORGANISATION_NAME_MIN_LENGTH,
    maxLength: ORGANISATION_NAME_MAX_LENGTH,
    description: 'A new name: keys keep working; sessions name it anew in X-Organisation.',
  })
  @IsOptional()
  @IsString({ message: NAME_MESSAGE })
  @Length(ORGANISATION_NAME_MIN_LENGTH, ORGANISATION_NAME_MAX_LENGTH, { message: NAME_MESSAGE })
  @Matches(ORGANISATION_NAME_PATTERN, { message: NAME_MESSAGE })
  name?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString({ message: 'fullname must be text' })
  @MaxLength(200)
  fullname?: string;
}

export class AddMemberDto implements AddMemberRequest {
  @ApiProperty({ example: 'bob', description: 'The account to invite: it becomes a member once it accepts (its address must be verified).' })
  @IsString({ message: 'username must be the username of an account' })
  @Matches(USERNAME_PATTERN, { message: 'username must be the username of an account' })
  username!: string;

  @ApiProperty({ enum: ORG_ROLES })
  @IsIn(ORG_ROLES, { message: ROLE_MESSAGE })
  role!: OrgRole;
}

export class InviteDto implements InviteRequest {
  @ApiProperty({ example: 'bob@example.com', description: 'Whoever verifies this address on an account may accept.' })
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254)
  email!: string;

  @ApiProperty({ enum: ORG_ROLES })
  @IsIn(ORG_ROLES, { message: ROLE_MESSAGE })
  role!: OrgRole;
}

export class UpdateMemberDto implements UpdateMemberRequest {
  @ApiProperty({
    enum: ORG_ROLES,
    description: 'Giving `owner` transfers ownership when the caller then steps down; an organisation keeps one owner at least.',
  })
  @IsIn(ORG_ROLES, { message: ROLE_MESSAGE })
  role!: OrgRole;
}

export class OrganisationResponse implements OrganisationWire {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'acme-fleet' }) name!: string;
  @ApiProperty({ example: '' }) fullname!: string;
  @ApiProperty({ enum: ORG_ROLES, description: 'The caller’s role in it.' }) role!: OrgRole;
  @ApiProperty() members!: number;
  @ApiProperty({ description: 'Live devices it owns.' }) devices!: number;
  @ApiProperty() max_devices!: number;
  @ApiProperty({ example: '2027-11-28' }) expiration!: string;
  @ApiProperty({ example: '2026-11-28 18:00:00' }) created!: string;
}

export class MemberResponse implements MemberWire {
  @ApiProperty() account_id!: number;
  @ApiProperty() username!: string;
  @ApiProperty() fullname!: string;
  @ApiProperty({ enum: ORG_ROLES }) role!: OrgRole;
  @ApiProperty({ example: '2026-11-28 18:00:00' }) since!: string;
}

export class InvitationResponse implements InvitationWire {
  @ApiProperty() uid!: number;
  @ApiProperty() organisation_id!: number;
  @ApiProperty() organisation!: string;
  @ApiProperty({ description: 'The invited address (lower case).' }) email!: string;
  @ApiProperty({ enum: ORG_ROLES }) role!: OrgRole;
  @ApiProperty({ type: String, nullable: true }) invited_by!: string | null;
  @ApiProperty({ example: '2026-11-28 18:00:00' }) created!: string;
  @ApiProperty({ example: '2026-12-12 18:00:00' }) expires!: string;
}

export class InvitationAcceptedResponse implements InvitationAcceptedWire {
  @ApiProperty() organisation_id!: number;
  @ApiProperty({ enum: ORG_ROLES }) role!: OrgRole;
}

export class MemberRemovedResponse implements MemberRemovedWire {
  @ApiProperty() account_id!: number;
  @ApiProperty({ enum: [true] }) removed!: true;
}

export class InvitationWithdrawnResponse implements InvitationWithdrawnWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: [true] }) withdrawn!: true;
}

export class InvitationDeclinedResponse implements InvitationDeclinedWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: [true] }) declined!: true;
}
