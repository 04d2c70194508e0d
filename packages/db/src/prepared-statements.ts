import type { EntityManager } from '@mikro-orm/sql';
import type pg from 'pg';

/**
 * A hot statement, prepared by PostgreSQL once per pooled connection (a named statement: parsed
 * and planned once, then only bound and run). MikroORM sends every statement as text with its
 * values written in, which PostgreSQL parses and plans anew each time: for the few statements
 * every request runs, that was most of the database's CPU.
 */
export class PreparedStatement {
  readonly name: string;
  /** The statement, its values numbered `$1`, `$2`, … in the order they appear, each once. */
  readonly text: string;
  /** The same statement with `?` for each value, as MikroORM's `execute` takes it. */
  readonly withQuestionMarks: string;

  constructor(name: string, text: string) {
    this.name = name;
    this.text = text;
    const numbers = [...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));
    if (numbers.some((n, i) => n !== i + 1)) throw new Error(`${name}: its values must be $1, $2, … in order, each once`);
    this.withQuestionMarks = text.replace(/\$\d+/g, '?');
  }
}

/** The pool each open PostgreSQL database's statements go through, by its MikroORM connection. */
const pools = new WeakMap<object, () => pg.Pool | undefined>();

/** Called by `openDatabase`: statements outside a transaction on `connection` may use `pool`. */
export function usePoolForPrepared(connection: object, pool: () => pg.Pool | undefined): void {
  pools.set(connection, pool);
}

/**
 * Runs `statement` with `values` on `em`'s database: on PostgreSQL outside a transaction, as a
 * named statement on the pool MikroORM uses (its timeouts and failure handling are the pool's);
 * in a transaction, or on the embedded database, through `em` as any statement. Errors come as
 * MikroORM's, whichever way it went, so they are mapped to the wire in the one place they are.
 */
export async function runPrepared<T extends object>(em: EntityManager, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const connection = em.getConnection();
  const pool = em.isInTransaction() ? undefined : pools.get(connection)?.();
  if (!pool) return em.execute<T[]>(statement.withQuestionMarks, values);
  try {
    const result = await pool.query<T>({ name: statement.name, text: statement.text, values });
    return result.rows;
  } catch (error) {
    throw em.getDriver().convertException(error as Error);
  }
}
