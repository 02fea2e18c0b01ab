// CPU time of a process (user + system), read from /proc/<pid>/stat: what a request costs the
// process whatever else runs on the machine, unlike a rate measured on a shared host.
import { readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU milliseconds the process has used so far. */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Runs `fn` and adds the CPU milliseconds `pid` used meanwhile to its result as `cpuMs`. */
export async function withCpu(pid, fn) {
  const before = cpuMs(pid);
  const result = await fn();
  return { ...result, cpuMs: cpuMs(pid) - before };
}
