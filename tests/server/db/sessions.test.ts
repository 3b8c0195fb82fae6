import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, storageMode, type TestDatabase } from '../../helpers/storage.ts';

describe.skipIf(storageMode() !== 'postgres')("the app's Postgres sessions", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.drop());

  it('end a transaction left idle for 30 s', async () => {
    const { rows } = await sql<{
      idle_in_transaction_session_timeout: string;
    }>`show idle_in_transaction_session_timeout`.execute(t.database.db);
    expect(rows[0]!.idle_in_transaction_session_timeout).toBe('30s');
  });
});
