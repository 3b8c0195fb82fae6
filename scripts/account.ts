// `npm run account -- delete <username>`: deletes an account and its personal data, as its owner
// can from the settings page (see "Personal data" in the README). In embedded mode, runs in the
// running app when it has the data directory open.
import { deleteAccountByUsername, type DeletedAccount } from '../server/accounts/operator.ts';
import { loadConfig } from '../server/config.ts';
import { AppError } from '../server/errors.ts';
import { closeServices, createServices, type Services } from '../server/services.ts';
import { runningAppOrExit } from './running-app.ts';

const [command, username, ...rest] = process.argv.slice(2);
if (command !== 'delete' || !username || rest.length > 0) {
  console.error('Usage: npm run account -- delete <username>');
  process.exit(2);
}

async function remove(): Promise<DeletedAccount> {
  let services: Services;
  try {
    services = await createServices(loadConfig());
  } catch (error) {
    return runningAppOrExit(error).call<DeletedAccount>('account-delete', { username });
  }
  try {
    return await deleteAccountByUsername(services, username!);
  } finally {
    await closeServices(services);
  }
}

try {
  const result = await remove();
  console.log(
    `Deleted ${result.username}: the account, its reviews, ${result.photos} photo(s) and its personal data.`,
  );
} catch (error) {
  if (error instanceof AppError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
