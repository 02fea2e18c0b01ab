import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { hourWindow, mailsCounted, takeMailPlaces } from '../mail/mail-counts';
import { uniqueViolation } from '../sql/pg-errors';

/**
 * What confirming a verification token did: `ok` with the account's address (now verified) and,
 * when it replaced another, the one it replaced and whether that was verified; `invalid` (unknown,
 * expired, replaced, or for an address the account no longer asks for); `taken` (the pending
 * address became another account's meanwhile).
 */
export type VerificationOutcome =
  { kind: 'ok'; accountId: number; email: string; replaced: { email: string; verified: boolean } | null } | { kind: 'invalid' } | { kind: 'taken' };

class AddressTaken extends Error {}

/** E-mail verification tokens (stored as SHA-256 digests, like reset tokens) and what they confirm (docs/api.md §3). */
@Injectable()
export class EmailVerificationsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The address the account has to verify: its pending one, else its current one while unverified; null when none. */
  async addressToVerify(accountId: number): Promise<string | null> {
    const [row] = (await this.ds.query('SELECT email, email_pending, email_verified_at IS NOT NULL AS verified FROM accounts WHERE id = $1', [accountId])) as {
      email: string;
      email_pending: string | null;
      verified: boolean;
    }[];
    if (!row) return null;
    return row.email_pending ?? (row.verified ? null : row.email);
  }

  /**
   * Issues the account's token for `email`, replacing any it had (one live token per account, as
   * for resets), if the hour's verification mails to that address are not spent: the mail's place
   * is taken in the same transaction. False (nothing issued) when they are.
   */
  async issue(digest: Buffer, accountId: number, email: string, expiresAt: Date, perAddressPerHour: number, now: Date): Promise<boolean> {
    return this.ds.transaction(async (tx) => {
      await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      const { taken } = await takeMailPlaces(tx, [{ scope: 'verification', key: email.toLowerCase(), limit: perAddressPerHour }], hourWindow(now), 1);
      if (taken === 0) return false;
      await tx.query('DELETE FROM email_verifications WHERE account_id = $1 AND used_at IS NULL', [accountId]);
      await tx.query('INSERT INTO email_verifications (digest, account_id, email, expires_at) VALUES ($1, $2, $3, $4)', [digest, accountId, email, expiresAt]);
      return true;
    });
  }

  /** Verification mails counted to this address in the hour `now` falls in. */
  mailsThisHour(email: string, now: Date): Promise<number> {
    return mailsCounted(this.ds, 'verification', email.toLowerCase(), hourWindow(now));
  }

  /**
   * Confirms the address a token was mailed to, in one transaction with the token and the account
   * locked: the account's own address becomes verified, or its pending address replaces it,
   * verified (the account's live reset tokens end with the old address: they were mailed there).
   * A token used already answers `ok` again while its address is the account's verified one, so a
   * second click on the link is not an error.
   */
  async confirm(digest: Buffer): Promise<VerificationOutcome> {
    try {
      return await this.ds.transaction(async (tx): Promise<VerificationOutcome> => {
        const [token] = (await tx.query(
          'SELECT account_id, email, used_at IS NOT NULL AS used, expires_at > now() AS live FROM email_verifications WHERE digest = $1 FOR UPDATE',
          [digest],
        )) as { account_id: number; email: string; used: boolean; live: boolean }[];
        if (!token) return { kind: 'invalid' };
        const [account] = (await tx.query(
          'SELECT email, email_key, email_pending, email_verified_at IS NOT NULL AS verified FROM accounts WHERE id = $1 FOR UPDATE',
          [token.account_id],
        )) as { email: string; email_key: string; email_pending: string | null; verified: boolean }[];
        if (!account) return { kind: 'invalid' };
        const key = token.email.toLowerCase();
        if (token.used)
          return account.email_key === key && account.verified
            ? { kind: 'ok', accountId: token.account_id, email: account.email, replaced: null }
            : { kind: 'invalid' };
        if (!token.live) return { kind: 'invalid' };
        if (account.email_key === key) {
          await tx.query('UPDATE accounts SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1', [token.account_id]);
        } else if (account.email_pending !== null && account.email_pending.toLowerCase() === key) {
          const [other] = (await tx.query('SELECT 1 FROM accounts WHERE email_key = $1 AND id <> $2', [key, token.account_id])) as unknown[];
          if (other) throw new AddressTaken();
          await tx.query('UPDATE accounts SET email = $2, email_key = $3, email_pending = NULL, email_verified_at = now() WHERE id = $1', [
            token.account_id,
            token.email,
            key,
          ]);
          await tx.query('DELETE FROM password_resets WHERE account_id = $1 AND used_at IS NULL', [token.account_id]);
        } else {
          return { kind: 'invalid' };
        }
        await tx.query('UPDATE email_verifications SET used_at = now() WHERE digest = $1', [digest]);
        const replaced = account.email_key === key ? null : { email: account.email, verified: account.verified };
        return { kind: 'ok', accountId: token.account_id, email: replaced ? token.email : account.email, replaced };
      });
    } catch (error) {
      // A registration that took the address between the check and the update: its unique index says so.
      if (error instanceof AddressTaken || uniqueViolation(error) !== null) return { kind: 'taken' };
      throw error;
    }
  }
}
