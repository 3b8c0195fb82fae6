// `npm run role -- <username> moderator|member`: grants or revokes the moderator role. In
// embedded mode, runs in the running app when it has the data directory open.
import type { RoleChange } from '../server/moderation/roles.ts';
import type { Services } from '../server/services.ts';

const [username, role, ...rest] = process.argv.slice(2);
if (!username || (role !== 'moderator' && role !== 'member') || rest.length > 0) {
  console.error('Usage: npm run role -- <username> moderator|member');
  process.exit(2);
}

// Loaded once the arguments are known to be good, so a mistyped command answers at once.
const [
  { loadConfig },
  { AppError },
  { migrateToLatest },
  { setRole },
  { closeServices, createServices },
  { runningAppOrExit },
] = await Promise.all([
  import('../server/config.ts'),
  import('../server/errors.ts'),
  import('../server/db/migrate.ts'),
  import('../server/moderation/roles.ts'),
  import('../server/services.ts'),
  import('./running-app.ts'),
]);

async function change(): Promise<RoleChange> {
  let services: Services;
  try {
    services = await createServices(loadConfig());
  } catch (error) {
    return runningAppOrExit(error).call<RoleChange>('role', { username, role });
  }
  try {
    await migrateToLatest(services.database.db);
    return await setRole(services, username!, role as RoleChange['role']);
  } finally {
    await closeServices(services);
  }
}

try {
  const result = await change();
  console.log(
    result.changed
      ? `${result.username} is now a ${result.role}.`
      : `${result.username} was already a ${result.role}; nothing changed.`,
  );
} catch (error) {
  if (error instanceof AppError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
