import type { Problem } from '../../shared/problems.js';
import { loadYaml, YamlBoundError } from './yamlLoader.js';

export type Parsed = { ok: true; value: unknown } | { ok: false; problem: Problem };

/** 1-based line and column of a character offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines.at(-1)!.length + 1 };
}

class JsonStop {
  constructor(readonly offset: number) {}
}

/**
 * Offset of the first JSON syntax error in `text` (its length when the error
 * is at the end). V8 gives an offset for most errors but not for
 * "Unexpected token 'x', "…" is not valid JSON" (a trailing comma in a list,
 * a missing value), so the parser's own offset is used when it has one and
 * this scan otherwise.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw new JsonStop(i);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail();
      const code = text.charCodeAt(i);
      if (code === 0x22) return void i++;
      if (code < 0x20) fail();
      if (code !== 0x5c) {
        i++;
        continue;
      }
      const escape = text[i + 1];
      const length = escape === 'u' ? (/^u[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 6)) ? 6 : 0) : escape !== undefined && '"\\/bfnrt'.includes(escape) ? 2 : 0;
      if (length === 0) {
        i++; // point at the bad escape
        fail();
      }
      i += length;
    }
  };
  const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      space();
      if (text[i] === close) return void i++;
      for (;;) {
        if (close === '}') {
          space();
          if (text[i] !== '"') fail();
          string();
          space();
          if (text[i] !== ':') fail();
          i++;
        }
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === close) return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return void (i += word.length);
    number.lastIndex = i;
    const match = number.exec(text);
    if (match) return void (i += match[0].length);
    fail();
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return text.length;
  } catch (error) {
    if (error instanceof JsonStop) return error.offset;
    return text.length; // nesting too deep to scan: report the end
  }
}

/** JSON.parse with a problem carrying line and column (Node 20 reports only an offset, and not always that). */
export function parseJsonText(text: string, file: string): Parsed {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // editors on Windows add a BOM
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : jsonErrorOffset(body);
    const { line, column } = lineColumnAt(body, offset);
    // V8 quotes the whole (possibly multi-line) source in some messages: keep only the reason.
    const reason = message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/ at position \d+.*$/s, '')
      .replace(/, (?:"[\s\S]*"|\.\.\.[\s\S]*) is not valid JSON$/, '');
    return {
      ok: false,
      problem: {
        severity: 'error',
        code: 'JSON_SYNTAX',
        file,
        path: '',
        line,
        column,
        message: `invalid JSON at line ${line}, column ${column}: ${reason}`,
        hint: 'fix the syntax there (a trailing comma, a missing quote or brace are the usual causes)',
      },
    };
  }
}

export function parseYamlText(text: string, file: string): Parsed {
  try {
    return { ok: true, value: loadYaml(text, file) ?? {} };
  } catch (error) {
    if (error instanceof YamlBoundError) {
      return { ok: false, problem: { severity: 'error', code: error.code, file, path: '', ...(error.line ? { line: error.line } : {}), message: error.message, hint: error.hint } };
    }
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
