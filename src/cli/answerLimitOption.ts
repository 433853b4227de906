import { Option } from 'commander';
import { UsageError } from './output.js';

function parseAnswerLimit(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`--max-answer-chars must be a whole number of at least 1, not "${text}"`);
  return n;
}

/**
 * `--max-answer-chars N`: chat.maxAnswerChars for this process, how long
 * one model answer may be before its stream is stopped and it is kept cut
 * (the core's default is 1 MiB of text).
 */
export const answerLimitOption = () =>
  new Option('--max-answer-chars <n>', 'characters one model answer may have (text and tool-call arguments) before it is cut (default 1048576)').argParser(parseAnswerLimit);

/** The host's chat options for the flag, when it was given. */
export const answerLimitOf = (value: number | undefined): { maxAnswerChars?: number } => (value === undefined ? {} : { maxAnswerChars: value });
