// For the operator scripts in embedded mode: when the data directory is locked by a running app,
// hand the command to that app (server/ops/local-operator.ts) instead of failing; when it is locked
// by anything else (another script, a worker), say who holds it and stop.
import path from 'node:path';
import { DataDirectoryLockedError } from '../server/db/data-lock.ts';
import type { ReplayProgress, ReplayResult } from '../server/events/replay.ts';
import { readOperatorChannel, type OperatorChannel } from '../server/ops/local-operator.ts';

/** Scripts end on a failure of the running app with its message alone; a stack adds nothing. */
function exitWith(message: string): never {
  console.error(message);
  process.exit(1);
}

export class RunningApp {
  constructor(readonly channel: OperatorChannel) {}

  private async post(command: string, body: object, timeoutMs: number | null): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${this.channel.url}/ops/${command}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.channel.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined,
      });
    } catch (error) {
      const cause = (error as { cause?: Error }).cause ?? (error as Error);
      exitWith(
        `The running app (pid ${this.channel.pid}) did not answer at ${this.channel.url}: ${cause.message}. ` +
          'If it is still starting, try again in a moment.',
      );
    }
    if (!res.ok) {
      const text = await res.text();
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        // not JSON: show it as it is
      }
      exitWith(`The running app refused \`${command}\` (${res.status}): ${message}`);
    }
    return res;
  }

  /** doctor, migrate, seed, role, account-delete, account-export: one JSON answer. */
  async call<T>(
    command: 'doctor' | 'migrate' | 'seed' | 'role' | 'account-delete' | 'account-export',
    body: object = {},
  ): Promise<T> {
    return (await (await this.post(command, body, 10 * 60_000)).json()) as T;
  }

  /** Runs a replay in the app, reporting its progress as a local one would. */
  async replay(
    body: { verify: boolean; force: boolean; projections: string[] },
    onProgress: (p: ReplayProgress) => void,
  ): Promise<ReplayResult> {
    const res = await this.post('replay', body, null);
    const decoder = new TextDecoder();
    let buffered = '';
    let result: ReplayResult | null = null;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffered.slice(0, end)) as
          | ({ type: 'progress' } & ReplayProgress)
          | { type: 'result'; result: ReplayResult }
          | { type: 'error'; message: string }
          | { type: 'heartbeat' };
        buffered = buffered.slice(end + 1);
        if (line.type === 'progress') onProgress(line);
        else if (line.type === 'result') result = line.result;
        else if (line.type === 'error') exitWith(`Replay failed in the running app: ${line.message}`);
      }
    }
    if (!result) exitWith('The running app ended the replay without a result (did it stop?)');
    return result;
  }
}

/** The running app holding the data directory named in `error`, or null when no app holds it. */
export function runningAppFor(error: DataDirectoryLockedError): RunningApp | null {
  const channel = readOperatorChannel(error.dataDir);
  // The file outlives an app killed outright: only the lock holder's own channel counts.
  return channel && channel.pid === error.holder.pid ? new RunningApp(channel) : null;
}

/**
 * Called with the error from opening the database. A data directory held by a running app gives
 * that app; held by another process, the lock's message is printed and the script exits 1; any
 * other error is thrown on. `notice: 'stderr'` keeps stdout for the command's own output (a
 * document printed there must be nothing but the document).
 */
export function runningAppOrExit(error: unknown, options: { notice?: 'stdout' | 'stderr' } = {}): RunningApp {
  if (!(error instanceof DataDirectoryLockedError)) throw error;
  const app = runningAppFor(error) ?? exitWith(error.message);
  const where = path.relative(process.cwd(), error.dataDir) || '.';
  const notice = `${where} is open in the running app (pid ${app.channel.pid}); running this there.`;
  if (options.notice === 'stderr') console.error(notice);
  else console.log(notice);
  return app;
}
