// The search vocabulary: every word the catalogue has used, for trigram matching of misspelt query
// words. It only grows: a word no longer used anywhere merely widens a query to a lexeme that
// matches nothing, so results stay exact without reading or counting other tables.
//
// Writers must never wait on each other here: two transactions adding the same new words in
// opposite orders (a new bodega and its cat, say) would deadlock on the unique key. So a new word
// is inserted only under a try-lock on that word; if another transaction holds it, that one is
// adding the word and this one leaves it to it (should that one roll back, the word waits for its
// next use: typo matching towards it is delayed, results never are).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Projection } from '../events/projection.ts';
import { assertNever, type RecordedEvent } from '../events/types.ts';

/** Keeps these advisory locks apart from any others. */
const WORD_LOCK_SEED = 5_318_008_271;

const HANDLES = ['BodegaAdded', 'BodegaUpdated', 'CatAdded', 'CatUpdated'] as const;
type Handled = (typeof HANDLES)[number];

/**
 * The texts whose words may be searched, in the same fields as the search documents. Each field is
 * its own text: whitespace always ends a token, so the lexemes are the same as the joined
 * document's, and a batch sends a repeated field (a breed, a colour, an edit's unchanged
 * description) once.
 */
function textsOf(event: RecordedEvent<Handled>): string[] {
  switch (event.type) {
    case 'BodegaAdded':
    case 'BodegaUpdated': {
      const d = event.data;
      return [d.name, d.address, d.description];
    }
    case 'CatAdded':
    case 'CatUpdated': {
      const d = event.data;
      return [d.name, d.breed, d.personality, d.color, d.description];
    }
    default:
      return assertNever(event);
  }
}

/**
 * Adds the words of some texts not in the vocabulary yet. The lexemes are exactly what the
 * 'simple' configuration makes of the documents. Only words not there yet are try-locked (a
 * handful per event at most), so few locks are ever held.
 *
 * Replay (the only user of applyBatch) writes its own shadow table with no other writer, and a
 * batch of tens of thousands of events can bring more new words than the server's lock table
 * holds, so it takes no locks (`lockWords` false).
 */
async function addWords(trx: Kysely<DB>, texts: string[], lockWords = true): Promise<void> {
  await sql`
    with used as (
      select distinct lexeme from unnest(${texts}::text[]) as t(doc), unnest(to_tsvector('simple', t.doc))
      where length(lexeme) between 3 and 40 and strpos(lexeme, '''') = 0 and strpos(lexeme, chr(92)) = 0
    ),
    missing as materialized (
      select lexeme from used where not exists (select 1 from search_words s where s.word = used.lexeme)
    )
    insert into search_words (word)
    select lexeme from missing
    where ${lockWords ? sql`pg_try_advisory_xact_lock(hashtextextended(lexeme, ${WORD_LOCK_SEED}))` : sql`true`}
    order by lexeme
    on conflict do nothing`.execute(trx);
}

export const searchWordsProjection: Projection = {
  name: 'search-words',
  tables: ['search_words'],
  handles: HANDLES,
  apply: (trx, event) => addWords(trx, textsOf(event as RecordedEvent<Handled>)),
  // The vocabulary is a set that only grows, so a batch is the union of its events' words.
  applyBatch: (trx, events) =>
    addWords(trx, [...new Set(events.flatMap((e) => textsOf(e as RecordedEvent<Handled>)))], false),
};
