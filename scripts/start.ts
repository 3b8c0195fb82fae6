// `npm start`: builds the client if it has not been built, then runs api + worker in one process
// (embedded storage unless DATABASE_URL / REDIS_URL are set).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLIENT_DIST } from '../server/app.ts';
import { main } from '../main.ts';

if (!existsSync(path.join(CLIENT_DIST, 'index.html'))) {
  console.log('Building the web client (first start only)...');
  const built = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await main('all');
