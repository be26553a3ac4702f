import type { ValidateFunction } from 'ajv';
import { TenantConfigurationError } from '../platform/errors/app-errors.js';
import { TtlCache } from '../platform/cache/ttl-cache.js';
import type { Orm } from '../platform/db/orm.js';
import { EventType } from './event-type.entity.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';
import { SecretCheck } from '../platform/secrets/secret-token.js';

export interface ReportableType {
  type: EventType;
  /** The payload validator, compiled once per schema; undefined when the type has no schema. */
  validate: ValidateFunction | undefined;
  /** A private type's secret check; undefined for a public type. */
  secret: SecretCheck | undefined;
}

/**
 * Event type by (tenant, name) for POST /events, with its payload validator, kept for a few
 * seconds so the hot path rarely asks PostgreSQL. Misses are not cached: a new type works at once.
 * A change made through this process is seen at once (`forget`); other processes see it when
 * their entry lapses (CACHE_TTL_MS).
 */
export class EventTypeDirectory {
  private readonly cache: TtlCache<ReportableType>;

  constructor(
    private readonly orm: Orm,
    private readonly schemas: PayloadSchemaCompiler,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  find(tenantId: string, name: string): Promise<ReportableType | undefined> {
    return this.cache.getOrLoad(`${tenantId}:${name}`, async () => {
      const type = await this.orm.em.fork().findOne(EventType, { tenant: tenantId, name });
      if (!type) return undefined;
      return {
        type,
        validate: type.schema ? this.storedSchema(type) : undefined,
        secret: type.secretHash ? new SecretCheck(type.secretHash) : undefined,
      };
    });
  }

  /**
   * A type's stored schema, which compiled when it was stored; one that no longer does (a pattern
   * only a backtracking engine runs, stored before patterns ran in linear time) is the tenant's to
   * change, not the reporter's fault.
   */
  private storedSchema(type: EventType): ValidateFunction {
    try {
      return this.schemas.compile(type.schema!);
    } catch (error) {
      throw new TenantConfigurationError(
        `The schema of event type ${type.name} cannot be run (${(error as Error).message}): an admin of the tenant must change it with PATCH /v1/event_types/${type.name}`,
      );
    }
  }

  /** After the type changed (deactivated, new schema, rotated secret). */
  forget(tenantId: string, name: string): void {
    this.cache.delete(`${tenantId}:${name}`);
  }
}
