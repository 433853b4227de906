/**
 * An mcp.yaml whose server carries a YAML alias bomb (issue 25): from line 6
 * on, line 6 + k anchors a list repeating the list above nine times, so
 * `levels` lines make 9^levels leaves, with nine aliases a line (under any
 * limit on their number).
 */
export function aliasBomb(levels: number, where: 'args' | 'env' = 'args'): string {
  const lines = ['version: 1', 'servers:', '  bomb:', '    command: echo', '    x-anchors:', `      a0: &a0 [${Array(9).fill('"xxxxxxxx"').join(', ')}]`];
  for (let i = 1; i < levels; i++)
    lines.push(
      `      a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  lines.push(where === 'args' ? `    args: *a${levels - 1}` : `    env: { BIG: *a${levels - 1} }`);
  return `${lines.join('\n')}\n`;
}

/** The 1-based line of aliasBomb that anchors `a<k>`. */
export const anchorLine = (k: number): number => 6 + k;
