/**
 * Whether creating a table or index failed only because another process created it at the same
 * moment. `CREATE … IF NOT EXISTS` is not atomic in PostgreSQL: two replicas starting together
 * both see it missing, and the second one's insert into the catalog fails with a unique
 * violation (23505), or with the table's row type or the relation already there (42710, 42P07).
 */
export function createdMeanwhile(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === '42710' || code === '42P07';
}
