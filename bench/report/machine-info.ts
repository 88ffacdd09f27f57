/** The machine figures ran on: without it a ratio cannot be compared with another run's. */
import { cpus, platform, release, totalmem } from "node:os";
import type { MachineInfo } from "./bench-results.js";

export function machineInfo(): MachineInfo {
  const cores = cpus();
  return {
    cores: cores.length,
    cpu: cores[0]?.model.trim() ?? "unknown",
    memory_gb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${platform()} ${release()}`,
  };
}
