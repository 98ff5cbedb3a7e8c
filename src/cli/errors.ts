/** A failure the CLI reports in one line and exits 2 for (bad usage, bad input, a server that fails). */
export class CliError extends Error {
  /** Show the command's usage after the message. */
  readonly usage: boolean;
  constructor(message: string, options: { usage?: boolean } = {}) {
    super(message);
    this.name = 'CliError';
    this.usage = options.usage ?? false;
  }
}
