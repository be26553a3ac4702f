import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from '../support/root.js';

/** A process of the stack under measurement: its log goes to a file, its peak memory is readable. */
export interface StackProcess {
  child: ChildProcess;
  logFile: string;
  /** Peak resident memory so far (VmHWM), in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

/**
 * `announces`: the process tells it is ready on its stdout (the ingest server's port), so stdout is
 * piped to us; any other process's stdout, where the service logs, goes to its log file: a pipe
 * nobody reads fills up and stalls the process's logging.
 */
export function startStackProcess(
  name: string,
  entry: string,
  args: string[],
  env: Record<string, string>,
  announces = false,
): StackProcess {
  const logFile = join(tmpdir(), `tally-bench-${process.pid}-${name}.log`);
  const log = openSync(logFile, 'w');
  // BENCH_CPU_PROFILE_DIR: each process of the stack leaves a V8 CPU profile there when it exits.
  const profile = process.env.BENCH_CPU_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.BENCH_CPU_PROFILE_DIR, name)}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', announces ? 'pipe' : log, log],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    logFile,
    peakRssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The first line a process prints on stdout, parsed as JSON (the ingest server's port). */
export function firstLine<T>(processUnderTest: StackProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: processUnderTest.child.stdout! });
    lines.once('line', (line) => resolve(JSON.parse(line) as T));
    processUnderTest.child.once('exit', (code) =>
      reject(new Error(`${processUnderTest.logFile}: exited with ${code} before it was ready`)),
    );
  });
}

/** CPU seconds process `pid` has spent so far, user and system, from /proc. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
