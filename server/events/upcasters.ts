// Upcasters turn an event stored under an older schema version into the current shape on read.
// Register one per (type, fromVersion); they chain until the current version is reached.
import { SCHEMA_VERSIONS, type EventType } from './types.ts';

/**
 * An event this code cannot read because newer code wrote it: a type it does not know, or a schema
 * version above its own. Consumers stop on it, loudly, rather than misread or skip it; deploying
 * the newer code everywhere resolves it.
 */
export class NewerEventError extends Error {
  override name = 'NewerEventError';
}

type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;
const upcasters = new Map<string, Upcaster>();

export function registerUpcaster(type: EventType, fromVersion: number, upcast: Upcaster): void {
  upcasters.set(`${type}@${fromVersion}`, upcast);
}

export function upcast(
  type: string,
  schemaVersion: number,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const target = SCHEMA_VERSIONS[type as EventType];
  if (target === undefined)
    throw new NewerEventError(`Event type ${type} is unknown to this code: deploy the code that writes it.`);
  if (schemaVersion > target)
    throw new NewerEventError(
      `${type} is stored under schema version ${schemaVersion}, newer than this code's ${target}: deploy the code that writes it.`,
    );
  let version = schemaVersion;
  let current = data;
  while (version < target) {
    const step = upcasters.get(`${type}@${version}`);
    if (!step) throw new Error(`No upcaster for ${type} from schema version ${version}`);
    current = step(current);
    version += 1;
  }
  return current;
}

// Schema v1 of these stored personal fields in plain text; v2 stores them sealed (personal.ts). Both
// read the same once opened, so the step changes nothing in the payload; at start, sealPlainEvents
// rewrites the v1 rows still stored as v2, so no plain text stays in the log.
for (const type of ['ReviewPosted', 'PhotoUploaded', 'ContentReported', 'ModerationDecided'] as const) {
  registerUpcaster(type, 1, (data) => data);
}

// Before v3 every report counted toward hiding its target: it keeps that meaning.
registerUpcaster('ContentReported', 2, (data) => ({ ...data, counts_toward_hide: true }));
