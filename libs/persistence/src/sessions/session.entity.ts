import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A server-side session (used when no Redis is configured). The cookie carries the id; we keep its digest. */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn({ type: 'bytea' })
  digest!: Buffer;

  @Index()
  @Column({ name: 'account_id', type: 'integer' })
  accountId!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz', default: () => 'now()' })
  lastSeenAt!: Date;

  @Index()
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** The User-Agent header at sign-in (cut to SESSION_USER_AGENT_MAX_LENGTH), or null. */
  @Column({ name: 'user_agent', type: 'text', nullable: true })
  userAgent!: string | null;

  /** The client address at sign-in, as the trusted-proxy rules make it out, or null. */
  @Column({ name: 'client_ip', type: 'text', nullable: true })
  clientIp!: string | null;
}
