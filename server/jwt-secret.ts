// The token-signing secret of a development install that has no JWT_SECRET: random, made on the
// first start and kept beside the data (readable by its owner only), so sessions survive restarts
// and no two installs share a secret. A secret published in the repository would let anyone who
// can reach the port sign tokens for any user.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const SECRET_FILE_NAME = 'jwt-secret';
/** The master key of personal data (DATA_KEY) of a development install, kept the same way. */
export const DATA_KEY_FILE_NAME = 'data-key';
const MIN_LENGTH = 32;

/** A fresh secret for a process that keeps nothing (tests): tokens die with it. */
export function randomSecret(): string {
  return randomBytes(32).toString('hex');
}

function readSecret(file: string): string | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  // A copy or an editor may have widened the mode; the secret is as good as its file's permissions.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  const secret = text.trim();
  if (secret.length < MIN_LENGTH)
    throw new Error(
      `${file} holds no usable secret (under ${MIN_LENGTH} characters): delete it to get a new one`,
    );
  return secret;
}

/**
 * The secret in `<dataDir>/<fileName>` (jwt-secret unless named), made first if there is none. Processes starting together
 * (api and worker) agree: the file appears whole, by linking a finished temporary file into place,
 * and whoever loses the race reads the winner's.
 */
export function secretBesideData(dataDir: string, fileName = SECRET_FILE_NAME): string {
  const file = path.join(dataDir, fileName);
  const existing = readSecret(file);
  if (existing) return existing;
  fs.mkdirSync(dataDir, { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, `${randomSecret()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.chmodSync(temp, 0o600);
    fs.linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return readSecret(file)!;
}
