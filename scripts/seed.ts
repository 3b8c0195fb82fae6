// `npm run seed`: appends the demo city (bodegas and cats across the five boroughs) as events.
// Safe to run again: an already seeded database is left as it is. In embedded mode, runs in the
// running app when it has the data directory open.
import { loadConfig } from '../server/config.ts';
import { closeServices, createServices, type Services } from '../server/services.ts';
import { seedDemoData } from '../server/catalogue/demo-city.ts';
import { runningAppOrExit } from './running-app.ts';

async function seed(): Promise<{ bodegas: number; cats: number }> {
  let services: Services;
  try {
    services = await createServices(loadConfig());
  } catch (error) {
    return runningAppOrExit(error).call<{ bodegas: number; cats: number }>('seed');
  }
  try {
    return await seedDemoData(services);
  } finally {
    await closeServices(services);
  }
}

const added = await seed();
console.log(
  added.bodegas === 0
    ? 'The demo data is already there; nothing added.'
    : `Added ${added.bodegas} bodegas and ${added.cats} cats.`,
);
