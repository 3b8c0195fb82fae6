// `npm run account -- delete <username>`: deletes an account and its personal data, as its owner
// can from the settings page. `npm run account -- export <username> [--out <file>]`: everything the
// product holds about the person, as one JSON document on stdout or in a file only its owner can
// read (see "Personal data" in the README). In embedded mode, both run in the running app when it
// has the data directory open.
import fs from 'node:fs';
import path from 'node:path';
import { exportAccountByUsername } from '../server/accounts/export.ts';
import { deleteAccountByUsername, type DeletedAccount } from '../server/accounts/operator.ts';
import { loadConfig } from '../server/config.ts';
import { AppError } from '../server/errors.ts';
import { personalData, type AccountExport } from '../server/personal-data.ts';
import { closeServices, createLogger, createServices, type Services } from '../server/services.ts';
import { runningAppOrExit } from './running-app.ts';

const USAGE = [
  'Usage: npm run account -- delete <username>',
  '       npm run account -- export <username> [--out <file>]',
].join('\n');

type Parsed =
  { command: 'delete'; username: string } | { command: 'export'; username: string; out: string | null };

function parse(args: string[]): Parsed | null {
  const [command, username, ...rest] = args;
  if (!username || username.startsWith('--')) return null;
  if (command === 'delete') return rest.length === 0 ? { command, username } : null;
  if (command !== 'export') return null;
  if (rest.length === 0) return { command, username, out: null };
  if (rest.length === 2 && rest[0] === '--out' && rest[1] !== '') return { command, username, out: rest[1]! };
  return null;
}

const parsed = parse(process.argv.slice(2));
if (!parsed) {
  console.error(USAGE);
  process.exit(2);
}

/** Runs `local` on the configured database, or hands `command` to the running embedded app. */
async function run<T>(
  command: 'account-delete' | 'account-export',
  local: (services: Services) => Promise<T>,
): Promise<T> {
  let services: Services;
  try {
    const config = loadConfig();
    // Logs go to stderr: an export on stdout must be the document alone.
    services = await createServices(config, { logger: createLogger(config, 'stderr') });
  } catch (error) {
    // stderr too: an export on stdout must be the document alone.
    return runningAppOrExit(error, { notice: 'stderr' }).call<T>(command, { username: parsed!.username });
  }
  try {
    return await local(services);
  } finally {
    await closeServices(services);
  }
}

/** Written whole or not at all, readable by its owner only (it is a person's data). */
function writePrivately(file: string, text: string): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    fs.fchmodSync(fd, 0o600); // whatever the umask
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  fs.renameSync(temp, file);
}

try {
  if (parsed.command === 'delete') {
    const result = await run<DeletedAccount>('account-delete', (services) =>
      deleteAccountByUsername(services, parsed.username, personalData),
    );
    console.log(
      `Deleted ${result.username}: the account, its reviews, ${result.photos} photo(s) and its personal data.`,
    );
  } else {
    const document = await run<AccountExport>('account-export', (services) =>
      exportAccountByUsername(services, parsed.username, personalData),
    );
    const text = `${JSON.stringify(document, null, 2)}\n`;
    if (parsed.out === null) {
      process.stdout.write(text);
    } else {
      writePrivately(parsed.out, text);
      console.log(`Wrote everything held about ${document.account.username} to ${parsed.out}.`);
    }
  }
} catch (error) {
  if (error instanceof AppError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
