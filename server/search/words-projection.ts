// The search vocabulary: every word the catalogue has used. Typo matching finds close words in it,
// and a typed word is widened to the words in it that start with it, so it must hold every lexeme
// of every search document. It only grows: a word no longer used anywhere merely widens a query to
// a lexeme that matches nothing, so results stay exact without reading or counting other tables.
//
// Writers never wait on each other here: there is no unique key, so two transactions adding the
// same new word (in any order) both insert it, and neither blocks, deadlocks or leaves the word to
// the other. The word then appears twice, which readers ignore (they take words distinct) and
// replay's comparison too (it reads this table as a set).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Projection } from '../events/projection.ts';
import { assertNever, type RecordedEvent } from '../events/types.ts';

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
 * Adds the words of some texts not in the vocabulary yet: exactly the lexemes the 'simple'
 * configuration makes of the documents, short ones too (a typed "st" is widened to them).
 */
async function addWords(trx: Kysely<DB>, texts: string[]): Promise<void> {
  await sql`
    insert into search_words (word)
    select lexeme from (
      select distinct lexeme from unnest(${texts}::text[]) as t(doc), unnest(to_tsvector('simple', t.doc))
    ) used
    where not exists (select 1 from search_words s where s.word = used.lexeme)`.execute(trx);
}

export const searchWordsProjection: Projection = {
  name: 'search-words',
  tables: ['search_words'],
  setTables: ['search_words'],
  handles: HANDLES,
  apply: (trx, event) => addWords(trx, textsOf(event as RecordedEvent<Handled>)),
  // The vocabulary is a set that only grows, so a batch is the union of its events' words.
  applyBatch: (trx, events) =>
    addWords(trx, [...new Set(events.flatMap((e) => textsOf(e as RecordedEvent<Handled>)))]),
};
