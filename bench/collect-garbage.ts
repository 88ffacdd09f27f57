/** Available when node runs with --expose-gc (the `bench` script does): frees a size's catalogue before the next. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
