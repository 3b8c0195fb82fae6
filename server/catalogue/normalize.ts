// Default-ignorable characters (zero-width spaces and joiners, direction marks, variation
// selectors, the byte order mark, Hangul fillers): invisible, or changing at most how the
// characters beside them are drawn, so names that differ only in them name the same shop.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

// How a bodega is recognised from free text: case- and whitespace-insensitive name and address,
// compatible forms folded (NFKC, so a full-width "Ｄｅｌｉ" is "Deli") and invisible characters
// left out, so that two names that look the same are the same bodega.
export function normalizeText(value: string): string {
  return value.normalize('NFKC').replace(IGNORABLE, '').trim().replace(/\s+/g, ' ').toLowerCase();
}

export function bodegaMatchKey(name: string, address: string): string {
  return `${normalizeText(name)}|${normalizeText(address)}`;
}
