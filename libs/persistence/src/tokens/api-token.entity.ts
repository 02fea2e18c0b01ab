import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An API token. The value is never stored in plain text: `digest` (SHA-256) finds the token on
 * each request, `valueEncrypted` (AES-256-GCM: iv | tag | ciphertext) lets the owner list it.
 */
@Entity({ name: 'api_tokens' })
export class ApiTokenEntity {
  @PrimaryGeneratedColumn()
  uid!: number;

  @Index()
  @Column({ name: 'account_id', type: 'integer' })
  accountId!: number;

  @Column({ type: 'bytea', unique: true })
  digest!: Buffer;

  @Column({ name: 'value_encrypted', type: 'bytea' })
  valueEncrypted!: Buffer;

  @Column({ type: 'text' })
  type!: 'app' | 'master';

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  meta!: unknown;

  @Column({ type: 'smallint', default: 1 })
  enabled!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  until!: Date | null;

  /** Who made an organisation's key: it acts with their role and ends when they leave; null: the account's own. */
  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy!: number | null;

  /** What the key may do (KEY_RIGHTS); null: all its type allows. */
  @Column({ type: 'text', array: true, nullable: true })
  rights!: string[] | null;
}
