// Statements whose plan does not depend on their parameters can skip planning: marked, they are
// prepared once per Postgres session under a name derived from their text, and later executions
// bind new parameters to the prepared statement. Planning is much of a short read's cost (0.3 to
// 0.8 ms of a 1 ms suggestion statement). Only for statements whose parameters the planner cannot
// see anyway (values read through a CTE or an unnested array), or whose best plan is the same for
// every value: a generic plan chosen for one value could be poor for another. Embedded PGlite
// runs them as it runs any other statement.
import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';

const MARK = ' /* plan reused */';

/** The mark at a query builder's end: `.modifyEnd(REUSED_PLAN)`. */
export const REUSED_PLAN = sql.raw(MARK);

/** A raw statement, marked. */
export function reusePlan<T>(statement: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${statement}${REUSED_PLAN}`;
}

/** The prepared statement's name for a marked statement's text, or null for any other. */
export function preparedName(text: string): string | null {
  return text.endsWith(MARK) ? `p${createHash('sha1').update(text).digest('hex').slice(0, 24)}` : null;
}
