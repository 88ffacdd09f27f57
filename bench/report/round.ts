/** Figures are stored rounded: more digits than the noise between runs only mislead. */
export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
