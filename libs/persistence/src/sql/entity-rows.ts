import type { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * An entity read by a prepared statement (Statements) instead of TypeORM's finders: the SELECT
 * list is built once from TypeORM's metadata, and each row is hydrated with TypeORM's own driver
 * conversions (a `date` column as its text, JSON, arrays), so the entity is the one `findOneBy`
 * returned. On a request path, building the same SQL with the query builder on every call cost
 * more than the query (docs/benchmarks.md, figure 14).
 */
export class EntityRows<E extends ObjectLiteral> {
  private readonly metadata: EntityMetadata;

  constructor(
    private readonly ds: DataSource,
    target: EntityTarget<E>,
  ) {
    this.metadata = ds.getMetadata(target);
  }

  /** The entity's columns for a SELECT, from the table under `alias`, each named after its property. */
  columns(alias: string): string {
    return this.metadata.columns.map((c) => `${alias}."${c.databaseName}" AS "${c.propertyName}"`).join(', ');
  }

  /** A row selected with `columns` as the entity. */
  hydrate(row: Record<string, unknown>): E {
    const entity = this.metadata.create() as E;
    for (const column of this.metadata.columns) {
      (entity as Record<string, unknown>)[column.propertyName] = this.ds.driver.prepareHydratedValue(row[column.propertyName], column);
    }
    return entity;
  }
}
