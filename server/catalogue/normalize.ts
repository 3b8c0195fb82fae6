// How a bodega is recognised from free text: case- and whitespace-insensitive name and address.
export function normalizeText(value: string): string {
  return value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

export function bodegaMatchKey(name: string, address: string): string {
  return `${normalizeText(name)}|${normalizeText(address)}`;
}
