// Colour on a terminal only, and never when NO_COLOR is set (CI logs stay plain).

export function useColor(stream: NodeJS.WriteStream): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.env.FORCE_COLOR) return true;
  return Boolean(stream.isTTY);
}
