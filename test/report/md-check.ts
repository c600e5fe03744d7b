// Reads back what the Markdown report wrote: its fenced blocks, strictly (an unclosed fence is an error).

/** Fenced blocks of a document: opening fence, body; throws on a block that never closes. */
export function fencedBlocks(md: string): { fence: string; body: string[] }[] {
  const blocks: { fence: string; body: string[] }[] = [];
  let open: { fence: string; body: string[] } | undefined;
  for (const line of md.split('\n')) {
    if (open) {
      if (line === open.fence) {
        blocks.push(open);
        open = undefined;
      } else open.body.push(line);
    } else {
      const m = /^(`{3,})[\w-]*$/.exec(line);
      if (m) open = { fence: m[1], body: [] };
    }
  }
  if (open) throw new Error(`unclosed fence ${open.fence}`);
  return blocks;
}
