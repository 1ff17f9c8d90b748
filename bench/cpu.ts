import { readProcessTable, readStat, type ProcessStat } from './process-table';

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
}

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
export function cpuMeter(pids: Omit<CpuMs, 'bench'>): CpuMeter | undefined {
  if (readStat(process.pid) === undefined) return undefined;
  return {
    read: () => {
      const cpuOfTree = treeCpuMs(readProcessTable());
      const own = process.cpuUsage();
      return {
        bench: (own.user + own.system) / 1000,
        localMode: cpuOfTree(pids.localMode),
        reference: cpuOfTree(pids.reference),
        dynamoDb: cpuOfTree(pids.dynamoDb),
      };
    },
  };
}

export const NO_CPU: CpuMs = { bench: 0, localMode: 0, reference: 0, dynamoDb: 0 };

const combined = (a: CpuMs, b: CpuMs, sign: 1 | -1): CpuMs => ({
  bench: a.bench + sign * b.bench,
  localMode: a.localMode + sign * b.localMode,
  reference: a.reference + sign * b.reference,
  dynamoDb: a.dynamoDb + sign * b.dynamoDb,
});

export const cpuSpent = (before: CpuMs, after: CpuMs): CpuMs => combined(after, before, -1);
export const cpuSum = (sum: CpuMs, more: CpuMs): CpuMs => combined(sum, more, 1);
