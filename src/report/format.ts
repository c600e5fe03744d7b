// Formatting shared by every text renderer: times, sizes, one-line excerpts.

/** `2026-11-22 10:15:04Z`, or `-`. */
export function formatTime(t: number | undefined): string {
  if (t === undefined || !Number.isFinite(t)) return '-';
  return new Date(t).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, 'Z');
}

/** `4.2 MB`. */
export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(1)} ${units[i]}`;
}

/** One line of at most `max` characters, control characters shown as spaces. */
export function oneLine(text: string | undefined, max = 100): string {
  if (!text) return '';
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
