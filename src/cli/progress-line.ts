/**
 * A one-line progress counter on a terminal (stderr), silent when stderr is not a TTY so logs
 * and CI output stay clean.
 */
export function createProgressLine(stream: NodeJS.WriteStream = process.stderr) {
  const enabled = stream.isTTY === true;
  let lastWidth = 0;
  return {
    update(text: string): void {
      if (!enabled) return;
      const line = text.length > 100 ? `${text.slice(0, 97)}...` : text;
      stream.write(`\r${line}${" ".repeat(Math.max(0, lastWidth - line.length))}`);
      lastWidth = line.length;
    },
    done(): void {
      if (!enabled || lastWidth === 0) return;
      stream.write(`\r${" ".repeat(lastWidth)}\r`);
      lastWidth = 0;
    },
  };
}
