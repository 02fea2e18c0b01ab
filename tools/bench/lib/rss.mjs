// Resident set size of a process, read from /proc/<pid>/status (VmRSS, kB).
import { readFileSync } from 'node:fs';

export function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : null;
}

/** Samples the RSS every `intervalMs` until stopped; returns the first sample and the peak. */
export function sampleRss(pid, intervalMs = 25) {
  const start = rssMb(pid);
  let peak = start;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // the process is gone
    }
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      try {
        peak = Math.max(peak, rssMb(pid));
      } catch {
        // gone
      }
      return { startMb: start, peakMb: peak, growthMb: peak - start };
    },
  };
}
