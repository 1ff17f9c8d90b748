import { readProcessTable, readStat, readThreads, type ProcessStat, type ThreadStat } from '../test/support/process-table';

/**
 * CPU time spent by each process taking part in a measurement: the bench process itself (the load
 * generator and the direct calls), local mode, the reference server and DynamoDB Local, each with
 * its child processes (tsx starts node as a child). Read from Linux's /proc; elsewhere
 * there are no figures.
 */

export interface CpuMs {
  bench: number;
  localMode: number;
  reference: number;
  dynamoDb: number;
  /**
   * Of `dynamoDb`, what the JVM's JIT compiler threads spent. While they run, DynamoDB Local is
   * still compiling its hot paths, the requests run slower, and the compiler takes CPU from them:
   * it is not warm yet.
   */
  dynamoDbCompiler: number;
}

/** HotSpot's C1 and C2 compiler threads ("C2 CompilerThread0", cut to 15 characters by Linux). */
const JIT_COMPILER_THREAD = /^C[12] CompilerThre/;

const compilerThreads = (jvmPid: number): ThreadStat[] => readThreads(jvmPid).filter((thread) => JIT_COMPILER_THREAD.test(thread.name));

export interface CpuMeter {
  read(): CpuMs;
}

/** Each process's CPU plus that of all its descendants, by pid. */
function treeCpuMs(stats: readonly ProcessStat[]): (root: number) => number {
  const children = new Map<number, ProcessStat[]>();
  for (const stat of stats) {
    const siblings = children.get(stat.parent);
    if (siblings) siblings.push(stat);
    else children.set(stat.parent, [stat]);
  }
  return (root) => {
    let total = 0;
    const pending = stats.filter((stat) => stat.pid === root);
    for (let stat = pending.pop(); stat; stat = pending.pop()) {
      total += stat.cpuMs;
      pending.push(...(children.get(stat.pid) ?? []));
    }
    return total;
  };
}

/** A meter for the bench process and the process trees of `pids`; undefined where /proc is missing. */
export function cpuMeter(pids: Omit<CpuMs, 'bench' | 'dynamoDbCompiler'>): CpuMeter | undefined {
  if (readStat(process.pid) === undefined) return undefined;
  // Without them every reading would be 0, and the warm-up would take a compiling JVM for a warm one.
  if (compilerThreads(pids.dynamoDb).length === 0) {
    throw new Error(`DynamoDB Local's JVM (pid ${pids.dynamoDb}) has no thread named like ${JIT_COMPILER_THREAD.source}: the bench cannot tell when it has stopped compiling`);
  }
  return {
    read: () => {
      const cpuOfTree = treeCpuMs(readProcessTable());
      const own = process.cpuUsage();
      return {
        bench: (own.user + own.system) / 1000,
        localMode: cpuOfTree(pids.localMode),
        reference: cpuOfTree(pids.reference),
        dynamoDb: cpuOfTree(pids.dynamoDb),
        dynamoDbCompiler: compilerThreads(pids.dynamoDb).reduce((total, thread) => total + thread.cpuMs, 0),
      };
    },
  };
}

export const NO_CPU: CpuMs = { bench: 0, localMode: 0, reference: 0, dynamoDb: 0, dynamoDbCompiler: 0 };

const combined = (a: CpuMs, b: CpuMs, sign: 1 | -1): CpuMs => ({
  bench: a.bench + sign * b.bench,
  localMode: a.localMode + sign * b.localMode,
  reference: a.reference + sign * b.reference,
  dynamoDb: a.dynamoDb + sign * b.dynamoDb,
  dynamoDbCompiler: a.dynamoDbCompiler + sign * b.dynamoDbCompiler,
});

export const cpuSpent = (before: CpuMs, after: CpuMs): CpuMs => combined(after, before, -1);
export const cpuSum = (sum: CpuMs, more: CpuMs): CpuMs => combined(sum, more, 1);
