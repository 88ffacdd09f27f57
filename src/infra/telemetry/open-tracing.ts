import { tracingConfigOf } from "./tracing-env.js";
import type { RunningTracing } from "./start-tracing.js";

/**
 * Starts tracing when the OTEL_* variables turn it on; null (and nothing of OpenTelemetry
 * loaded: the SDK is imported here, only then) when they do not. Throws a ConfigError naming the
 * variable when one has a wrong value.
 */
export async function openTracing(env: Readonly<Record<string, string | undefined>>): Promise<RunningTracing | null> {
  const config = tracingConfigOf(env);
  if (config === null) return null;
  const { startTracing } = await import("./start-tracing.js");
  return startTracing(config);
}
