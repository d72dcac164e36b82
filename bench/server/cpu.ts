/**
 * CPU time spent by the processes a bench run involves, read from /proc (Linux): a measure that does not
 * move with the machine's load the way requests/s does (other processes take cores, not CPU time
 * from this run's processes). Per run: each server instance's process (its hash threads included), the
 * load generator, the PostgreSQL backends of this bench (those whose `application_name` is the bench's,
 * found in pg_stat_activity) and PostgreSQL's own background processes (WAL writer, checkpointer...: they
 * also serve other databases' work on the machine, so they are shown apart).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ: 100 on every Linux build). */
const TICKS_PER_SECOND = 100;

/** utime + stime of one process in ms, or undefined when it is gone (or /proc is not there). */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, i.e. 11 and 12 after "pid (comm) ".
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

/** Every process named `postgres`, by pid, with its CPU ms. */
export function postgresProcesses(): Map<number, number> {
  const out = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm !== 'postgres') continue;
      const ms = processCpuMs(Number(entry));
      if (ms !== undefined) out.set(Number(entry), ms);
    } catch {
      // The process ended while being read.
    }
  }
  return out;
}

export interface CpuSnapshot {
  /** Per pid (instances, load generator and all postgres processes): CPU ms. */
  readonly ms: Map<number, number>;
}

export function snapshot(pids: ReadonlyArray<number | undefined>): CpuSnapshot {
  const ms = postgresProcesses();
  for (const pid of pids) {
    const v = processCpuMs(pid);
    if (pid !== undefined && v !== undefined) ms.set(pid, v);
  }
  return { ms };
}

/** CPU ms a set of pids used between two snapshots (a pid born in between counts from zero). */
export function usedBy(before: CpuSnapshot, after: CpuSnapshot, pids: Iterable<number>): number {
  let total = 0;
  for (const pid of pids) {
    const end = after.ms.get(pid);
    if (end === undefined) continue;
    total += end - (before.ms.get(pid) ?? 0);
  }
  return total;
}

/** Postgres pids that are not client backends (postmaster, WAL writer, checkpointer...), from /proc. */
export function postgresBackgroundPids(all: Iterable<number>): number[] {
  const out: number[] = [];
  for (const pid of all) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\u0000', ' ');
      // Client backends read "postgres: <cluster>: <user> <database> <address> <state>".
      if (!/\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]/.test(cmdline)) out.push(pid);
    } catch {
      // Gone.
    }
  }
  return out;
}
