// How long the text the API takes may be, in characters (the raw value, before trimming): the
// server refuses anything longer, and the client's inputs stop at the same place. Plain numbers
// and no schema, so the client may import them as values (see eslint.config.js).
export const TEXT_LIMITS = {
  /** A cat's or a bodega's name. */
  name: 100,
  address: 200,
  description: 2000,
  hours: 200,
  breed: 100,
  personality: 100,
  age: 50,
  color: 50,
  weight: 50,
  phone: 40,
  /** A review's comment. */
  comment: 2000,
  /** A photo's caption. */
  caption: 300,
  /** A report's comment. */
  reportComment: 500,
} as const;
