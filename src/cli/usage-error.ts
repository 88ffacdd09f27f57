/** Bad command-line use: the CLI prints the message and the command's help, exit code 2. */
export class UsageError extends Error {
  constructor(message: string, readonly help?: string) {
    super(message);
    this.name = "UsageError";
  }
}
