import { Injectable } from '@nestjs/common';
import { deviceMatches, MAX_RULES_PER_ACCOUNT, type RuleDefinition, ruleProblems, type RuleWire, toUnix } from '@dts/domain';
import { IntegrationsRepository, type RuleRow, RulesRepository } from '@dts/persistence';
import type { EntityManager } from 'typeorm';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { checkedDeviceFilter } from '../integrations/integrations.service';
import type { CreateRuleDto, UpdateRuleDto } from './dto/rule.dto';

const toRuleWire = (r: RuleRow): RuleWire => ({
  uid: r.uid,
  name: r.name,
  kind: r.kind,
  enabled: r.enabled,
  devices: r.devices,
  email: r.email,
  fence: r.fence,
  on: r.on,
  minutes: r.minutes,
  member: r.member,
  above: r.above,
  below: r.below,
  hysteresis: r.hysteresis,
  measure: r.measure,
  created_unix: toUnix(r.created_at),
  updated_unix: toUnix(r.updated_at),
});

const DEFINITION_MEMBERS = ['fence', 'on', 'minutes', 'member', 'above', 'below', 'hysteresis', 'measure'] as const;
const NOT_NULL = ['name', 'enabled', 'email'] as const;

/** An account's alert rules (docs/api.md §19). */
@Injectable()
export class RulesService {
  constructor(
    private readonly rules: RulesRepository,
    private readonly integrations: IntegrationsRepository,
  ) {}

  async list(me: AuthPrincipal): Promise<RuleWire[]> {
    return (await this.rules.list(me.accountId)).map(toRuleWire);
  }

  async one(me: AuthPrincipal, uid: number): Promise<RuleWire> {
    return toRuleWire(await this.require(me, uid));
  }

  async create(me: AuthPrincipal, dto: CreateRuleDto): Promise<RuleWire> {
    const def = await this.definition(me, dto.kind, { name: dto.name, enabled: true, devices: null, email: false }, dto);
    const row = await this.rules.create(me.accountId, def, this.watcher(me, def), MAX_RULES_PER_ACCOUNT);
    // Whatever a rule mails, the hourly limits of alert mail bound it (docs/api.md §19).
    if (!row) throw ApiException.of('LIMIT_REACHED', `an account has at most ${MAX_RULES_PER_ACCOUNT} alert rules`);
    return toRuleWire(row);
  }

  async update(me: AuthPrincipal, uid: number, dto: UpdateRuleDto): Promise<RuleWire> {
    const existing = await this.require(me, uid);
    for (const member of NOT_NULL) {
      if ((dto as Record<string, unknown>)[member] === null) throw ApiException.validation(member, `${member} must not be null`);
    }
    const def = await this.definition(me, existing.kind, existing, dto);
    const row = await this.rules.update(me.accountId, uid, def, this.watcher(me, def));
    if (!row) throw ApiException.notFound('rule', 'uid');
    return toRuleWire(row);
  }

  async delete(me: AuthPrincipal, uid: number): Promise<{ uid: number; deleted: true }> {
    if (!(await this.rules.delete(me.accountId, uid))) throw ApiException.notFound('rule', 'uid');
    return { uid, deleted: true };
  }

  private async require(me: AuthPrincipal, uid: number): Promise<RuleRow> {
    const row = await this.rules.find(me.accountId, uid);
    if (!row) throw ApiException.notFound('rule', 'uid');
    return row;
  }

  /** `base` with the members given; every problem of the result named, the fence and devices checked against the account. */
  private async definition(
    me: AuthPrincipal,
    kind: RuleDefinition['kind'],
    base: Partial<RuleDefinition> & Pick<RuleDefinition, 'name' | 'enabled' | 'devices' | 'email'>,
    dto: UpdateRuleDto,
  ): Promise<RuleDefinition> {
    const def: RuleDefinition = {
      name: dto.name ?? base.name,
      kind,
      enabled: dto.enabled ?? base.enabled,
      devices: base.devices,
      email: dto.email ?? base.email,
      fence: null,
      on: null,
      minutes: null,
      member: null,
      above: null,
      below: null,
      hysteresis: null,
      measure: null,
    };
    for (const m of DEFINITION_MEMBERS) (def as unknown as Record<string, unknown>)[m] = dto[m] !== undefined ? dto[m] : (base[m] ?? null);
    // A threshold given one of above/below replaces the other.
    if (kind === 'threshold' && dto.above !== undefined && dto.below === undefined && dto.above !== null) def.below = null;
    if (kind === 'threshold' && dto.below !== undefined && dto.above === undefined && dto.below !== null) def.above = null;
    const problems = ruleProblems(def);
    if (problems.length > 0) throw new ApiException(problems.map((p) => ({ code: 'VALIDATION_FAILED' as const, ...p })));
    if (def.fence !== null && !(await this.rules.fenceOwned(me.accountId, def.fence))) throw ApiException.notFound('fence', 'fence');
    if (dto.devices !== undefined) def.devices = await checkedDeviceFilter(this.integrations, me.accountId, dto.devices);
    return def;
  }

  /** An offline rule watches its devices from the start: each is due `minutes` after it was last heard. */
  private watcher(me: AuthPrincipal, def: RuleDefinition) {
    return async (tx: EntityManager, ruleUid: number) => {
      if (def.kind !== 'offline' || !def.enabled) return;
      const devices = (await this.rules.watchable(tx, me.accountId)).filter((d) => deviceMatches(def.devices, d));
      await this.rules.arm(tx, ruleUid, def.minutes!, devices);
    };
  }
}
