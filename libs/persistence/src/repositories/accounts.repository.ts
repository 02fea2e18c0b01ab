import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AccountEntity } from '../entities';
import { uniqueViolation } from './pg-errors';

export interface NewAccount {
  username: string;
  email: string;
  fullname: string;
  passwordHash: string;
  groupid: number;
  maxDevices: number;
  /** YYYY-MM-DD */
  expiresOn: string;
}

export type CreateAccountResult = { ok: true; account: AccountEntity } | { ok: false; conflict: 'username' | 'email' };

@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.ds.manager).getRepository(AccountEntity);
  }

  async create(input: NewAccount): Promise<CreateAccountResult> {
    try {
      const account = await this.repo().save(
        this.repo().create({ ...input, usernameKey: input.username.toLowerCase(), emailKey: input.email.toLowerCase(), consent: 0, active: 1 }),
      );
      return { ok: true, account };
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint?.includes('username')) return { ok: false, conflict: 'username' };
      if (constraint?.includes('email')) return { ok: false, conflict: 'email' };
      throw error;
    }
  }

  findById(id: number): Promise<AccountEntity | null> {
    return this.repo().findOneBy({ id });
  }

  findByUsername(username: string): Promise<AccountEntity | null> {
    return this.repo().findOneBy({ usernameKey: username.toLowerCase() });
  }

  /** By username or e-mail address, case-insensitively. */
  async findByLogin(login: string): Promise<AccountEntity | null> {
    const key = login.toLowerCase();
    return this.repo().createQueryBuilder('a').where('a.username_key = :key OR a.email_key = :key', { key }).getOne();
  }

  async recordLogin(id: number): Promise<void> {
    await this.ds.query('UPDATE accounts SET login_count = login_count + 1, last_login_at = now() WHERE id = $1', [id]);
  }

  async updatePassword(id: number, passwordHash: string, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { passwordHash });
  }

  /** Deletes the account; everything it owns goes with it through ON DELETE CASCADE. */
  async delete(id: number): Promise<void> {
    await this.repo().delete({ id });
  }

  async count(): Promise<number> {
    return this.repo().count();
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }
}
