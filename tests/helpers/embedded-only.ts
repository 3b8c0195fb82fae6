// For tests of embedded mode itself (the storage thread, the data directory's lock, operator
// commands against a running embedded app). They open their own PGlite whatever storage the suite
// runs on, so the Postgres suite skips them instead of doing the same work a second time.
import { describe } from 'vitest';
import { storageMode } from './storage.ts';

export const describeEmbedded = describe.skipIf(storageMode() === 'postgres');
