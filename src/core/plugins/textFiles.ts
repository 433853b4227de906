import * as yaml from 'js-yaml';
import type { Problem } from '../../shared/problems.js';

export type Parsed = { ok: true; value: unknown } | { ok: false; problem: Problem };

/** 1-based line and column of a character offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines.at(-1)!.length + 1 };
}

/** JSON.parse with a problem carrying line and column (Node 20 reports only an offset). */
export function parseJsonText(text: string, file: string): Parsed {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // editors on Windows add a BOM
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : body.length;
    const { line, column } = lineColumnAt(body, offset);
    return {
      ok: false,
      problem: {
        severity: 'error',
        code: 'JSON_SYNTAX',
        file,
        path: '',
        line,
        column,
        message: `invalid JSON at line ${line}, column ${column}: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
        hint: 'fix the syntax there (a trailing comma, a missing quote or brace are the usual causes)',
      },
    };
  }
}

export function parseYamlText(text: string, file: string): Parsed {
  try {
    return { ok: true, value: yaml.load(text, { filename: file }) ?? {} };
  } catch (error) {
    const mark = (error as { mark?: { line: number; column: number } }).mark;
    const line = mark ? mark.line + 1 : undefined;
    const column = mark ? mark.column + 1 : undefined;
    return {
      ok: false,
      problem: {
        severity: 'error',
        code: 'YAML_SYNTAX',
        file,
        path: '',
        line,
        column,
        message: `invalid YAML${line ? ` at line ${line}, column ${column}` : ''}: ${(error as { reason?: string }).reason ?? (error as Error).message}`,
        hint: 'fix the YAML syntax there (indentation and unquoted ":" are the usual causes)',
      },
    };
  }
}

/** `.json` parses as JSON; `.yaml`/`.yml` (and anything else) as YAML. */
export function parseByExtension(text: string, file: string): Parsed {
  return file.toLowerCase().endsWith('.json') ? parseJsonText(text, file) : parseYamlText(text, file);
}
