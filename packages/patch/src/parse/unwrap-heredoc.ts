/** `<<'EOF'`, `<<"EOF"`, `<<EOF` or `<<-EOF`, optionally after `apply_patch` (or any command word). */
const HEREDOC_START = /^\s*(?:[\w./-]+\s+)?<<-?\s*(['"]?)([A-Za-z_][\w]*)\1\s*$/;

/**
 * The patch inside a heredoc wrapper, as models often send it (`apply_patch <<'EOF'` … `EOF`): the first and last
 * lines are dropped when the first opens a heredoc and the last closes it with the same word. Anything else is
 * returned as it is.
 */
export function unwrapHeredoc(lines: readonly string[]): { lines: string[]; offset: number } {
  const first = lines.findIndex((line) => line.trim() !== '');
  let last = lines.length - 1;
  while (last > first && lines[last]!.trim() === '') last -= 1;
  const opening = first >= 0 ? HEREDOC_START.exec(lines[first]!) : null;
  if (opening === null || last <= first || lines[last]!.trim() !== opening[2]) {
    return { lines: [...lines], offset: 0 };
  }
  return { lines: lines.slice(first + 1, last), offset: first + 1 };
}
