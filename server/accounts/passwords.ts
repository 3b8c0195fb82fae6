// Password hashing with scrypt, a memory-hard KDF, and a fresh salt per password. The stored form
// carries its own cost parameters, so they can be raised later without invalidating old hashes.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

type Cost = { N: number; r: number; p: number };

// One of OWASP's equivalent scrypt settings: 32 MiB per hash, with p=3 making up the work.
const COST: Cost = { N: 2 ** 15, r: 8, p: 3 };
const KEY_BYTES = 64;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, cost: Cost, keyBytes: number): Promise<Buffer> {
  // NFKC so the same password typed on different keyboards/platforms gives the same bytes.
  const input = password.normalize('NFKC');
  return new Promise((resolve, reject) =>
    scrypt(input, salt, keyBytes, { ...cost, maxmem: 256 * cost.N * cost.r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST, KEY_BYTES);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

function parse(stored: string): { cost: Cost; salt: Buffer; key: Buffer } | null {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return null;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(cost).every((v) => Number.isSafeInteger(v) && v > 0)) return null;
  return { cost, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || parsed.key.length === 0) return false;
  const candidate = await derive(password, parsed.salt, parsed.cost, parsed.key.length);
  return timingSafeEqual(candidate, parsed.key);
}

let decoy: Promise<string> | null = null;

/**
 * Spends the same work as checking a real password, for sign-ins naming no account, so response
 * times do not tell which usernames exist. Always false.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
  return false;
}
