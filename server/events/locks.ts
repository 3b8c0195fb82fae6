// Advisory lock keys shared by the event store and replay. Advisory locks are per database, so
// test databases on one server never see each other's.

/** Held at session level for the whole of a replay or --verify: one run at a time. */
export const REPLAY_LOCK = 7_031_001;

/**
 * The writer gate: every append takes it shared for its transaction; replay's swap takes it
 * exclusively, so appends wait at the gate (holding nothing else of the log) while the swap runs.
 */
export const WRITERS_LOCK = 7_031_002;
