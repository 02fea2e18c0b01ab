import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'text' })
  username!: string;

  /** Lower-cased username: unique, so that "Alice" and "alice" cannot both exist. */
  @Column({ name: 'username_key', type: 'text', unique: true })
  usernameKey!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'email_key', type: 'text', unique: true })
  emailKey!: string;

  /** When the owner of `email` confirmed it; null: not yet, and no alert mail goes to it. */
  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt!: Date | null;

  /** An address the account asked to change to; it replaces `email` once verified. */
  @Column({ name: 'email_pending', type: 'text', nullable: true })
  emailPending!: string | null;

  @Column({ type: 'text', default: '' })
  fullname!: string;

  /** argon2id PHC string. */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  @Column({ type: 'smallint', default: 0 })
  consent!: number;

  @Column({ type: 'smallint', default: 1 })
  active!: number;

  @Column({ type: 'integer', default: 2 })
  groupid!: number;

  /** 'organisation': an account people act in as members; it never signs in (docs/api.md §20). */
  @Column({ type: 'text', default: 'person' })
  kind!: 'person' | 'organisation';

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt!: Date | null;

  @Column({ type: 'text', default: 'free' })
  subscription!: string;

  /** Date (UTC) after which the account may no longer register devices. */
  @Column({ name: 'expires_on', type: 'date' })
  expiresOn!: string;

  @Column({ name: 'max_devices', type: 'integer' })
  maxDevices!: number;

  @Column({ name: 'login_count', type: 'integer', default: 0 })
  loginCount!: number;

  /** Days the account's raw uplinks are kept, set by an administrator; null: the platform default (UPLINK_RETENTION_DAYS). */
  @Column({ name: 'uplink_retention_days', type: 'integer', nullable: true })
  uplinkRetentionDays!: number | null;
}
