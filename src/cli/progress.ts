// Progress on stderr: a bar redrawn in place on a terminal, plain lines otherwise (CI logs).
// Notes name bundles: escaped like every text report, so a file name cannot retitle the terminal.
import { oneLine } from '../report/format.js';

export class Progress {
  private readonly tty: boolean;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly total: number,
  ) {
    this.tty = Boolean(stream.isTTY);
  }

  /** Reports `done` of `total`, with a short note. */
  tick(done: number, note: string): void {
    if (this.tty) {
      const width = 24;
      const filled = Math.min(width, Math.max(0, Math.round((done / Math.max(1, this.total)) * width)));
      this.stream.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${this.total} ${oneLine(note, 60).padEnd(60)}`);
    } else {
      this.stream.write(`bootlens: ${done}/${this.total} ${oneLine(note, 1000)}\n`);
    }
  }

  /** Reports bytes read of a total, for one large bundle (TTY only: plain output stays quiet). */
  bytes(read: number, total: number): void {
    if (!this.tty || total <= 0) return;
    const pct = Math.min(100, Math.floor((read / total) * 100));
    this.stream.write(`\rreading ${pct}% (${Math.round(read / 1048576)} of ${Math.round(total / 1048576)} MB)`);
  }

  done(): void {
    if (this.tty) this.stream.write('\r\u001b[K');
  }
}
