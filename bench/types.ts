// One measured figure of a benchmark scenario, next to a baseline measured in the same run.
export type BenchRow = {
  scenario: string;
  /** What was measured, e.g. "text search p95". */
  metric: string;
  unit: string;
  value: number;
  /** The same work done the plain way (direct SQL, bare sharp, ...), measured in the same run. */
  baseline: number;
  baselineLabel: string;
  /** value / baseline. */
  ratio: number;
  /** The target in words, e.g. "p95 <= 25 ms", and whether this run met it. */
  target?: string;
  pass?: boolean;
};

export type Scenario = {
  name: string;
  /** Sets up its own data through the real append path; every loop is bounded in count and time. */
  run(options: { quick: boolean }): Promise<BenchRow[]>;
};
