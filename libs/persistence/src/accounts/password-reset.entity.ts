import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A single-use password reset token, stored as its digest. */
@Entity({ name: 'password_resets' })
export class PasswordResetEntity {
  @PrimaryColumn({ type: 'bytea' })
  digest!: Buffer;

  @Column({ name: 'account_id', type: 'integer' })
  accountId!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;
}
