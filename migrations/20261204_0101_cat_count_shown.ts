// A bodega's cat_count counts the cats it shows: a cat moderation hid on its own no longer counts
// (a bodega page said "1 cat" and listed none). Counts kept before this are set right once here;
// the catalogue projection keeps them from now on, and replay's rebuild counts the same way.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update bodegas as b set cat_count = c.n
    from (
      select b.id, count(cats.id)::int as n
      from bodegas b left join cats on cats.bodega_id = b.id and not cats.hidden_self
      group by b.id
    ) c
    where b.id = c.id and b.cat_count <> c.n`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update bodegas as b set cat_count = c.n
    from (
      select b.id, count(cats.id)::int as n
      from bodegas b left join cats on cats.bodega_id = b.id
      group by b.id
    ) c
    where b.id = c.id and b.cat_count <> c.n`.execute(db);
}
