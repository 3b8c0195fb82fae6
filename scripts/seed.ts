// `npm run seed`: appends the demo city (bodegas and cats across the five boroughs) as events.
// Safe to run again: an already seeded database is left as it is.
import { loadConfig } from '../server/config.ts';
import { closeServices, createServices } from '../server/services.ts';
import { seedDemoData } from './seed-data.ts';

const services = await createServices(loadConfig());
try {
  const added = await seedDemoData(services);
  console.log(
    added.bodegas === 0
      ? 'The demo data is already there; nothing added.'
      : `Added ${added.bodegas} bodegas and ${added.cats} cats.`,
  );
} finally {
  await closeServices(services);
}
