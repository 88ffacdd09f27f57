/**
 * A pure function's answers kept for the life of the process, one per key: for work the config
 * decides (a cron's gaps, a time zone's check), which a fleet's projects share a few of and a
 * start would otherwise repeat for each project. The keys must come from a bounded set: nothing
 * is ever forgotten.
 */
export function oncePerKey<A extends readonly unknown[], V>(keyOf: (...args: A) => string, compute: (...args: A) => V): (...args: A) => V {
  const answers = new Map<string, V>();
  return (...args) => {
    const key = keyOf(...args);
    if (answers.has(key)) return answers.get(key) as V;
    const answer = compute(...args);
    answers.set(key, answer);
    return answer;
  };
}
