// The frame every bootlens HTML page shares: a strict Content-Security-Policy that names its one
// stylesheet (and script, if any) by hash, no referrer, no favicon request.
import { createHash } from 'node:crypto';
import { html, SafeHtml } from './escape.js';

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * A page's policy: nothing loads from anywhere; the stylesheet and the script run because their
 * hashes are named (no script at all without one); images only as data: URLs.
 */
export function pagePolicy(css: string, js?: string): string {
  return [`default-src 'none'`, `style-src ${sha256(css)}`, `script-src ${js === undefined ? `'none'` : sha256(js)}`, `img-src data:`, `base-uri 'none'`, `form-action 'none'`].join('; ');
}

/** From `<!DOCTYPE html>` to `<body>`: charset, the policy, the title and the stylesheet. */
export function pageHead(page: { title: string; version: string; css: string; js?: string }): SafeHtml {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${SafeHtml.trusted(pagePolicy(page.css, page.js)) /* constants and base64 hashes only */}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="bootlens ${page.version}">
<title>${page.title}</title>
<link rel="icon" href="data:,">
<style>${SafeHtml.trusted(page.css)}</style>
</head>
<body>`;
}
