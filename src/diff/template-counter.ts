// Counts the templates of every line of every log while a bundle is read (bounded: past the
// cap new templates are only counted as overflow).
import type { LogRef } from '../model/source-id.js';
import type { LineObserver } from '../specs/line-filter.js';
import { privateKeyLines } from '../redact/redact.js';
import { templateOf } from '../similarity/line-template.js';

export interface TemplateStat {
  template: string;
  count: number;
  /** Where it was first seen. */
  file: string;
  line: number;
  text: string;
}

const MAX_TEMPLATES = 100_000;
const MAX_EXAMPLE = 500;

export class TemplateCounter {
  readonly templates = new Map<string, TemplateStat>();
  overflow = 0;

  /** The observer to hand to readBundle's `observeLines`. */
  observer = (log: LogRef): LineObserver => {
    // A private key printed one line per journal line is one redacted line, never templates of its body.
    const keys = privateKeyLines();
    return (text, line) => {
      const raw = keys(text);
      if (raw.length === 0) return;
      const template = templateOf(raw.length > 2000 ? raw.slice(0, 2000) : raw);
      const seen = this.templates.get(template);
      if (seen) {
        seen.count++;
      } else if (this.templates.size < MAX_TEMPLATES) {
        this.templates.set(template, { template, count: 1, file: log.file, line, text: raw.slice(0, MAX_EXAMPLE) });
      } else {
        this.overflow++;
      }
    };
  };
}
