import * as path from 'node:path';
import { KNOWLEDGE_FILE_TYPES } from '../../shared/knowledge.js';
import { readRegularFile } from '../files/readRegularFile.js';
import { htmlToText, MAX_HTML_DEPTH } from './htmlText.js';
import { KnowledgeError } from './knowledgeError.js';

/** A file larger than this is refused before it is read (a PDF of a few hundred pages fits). */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Extracted text longer than this is refused: it would make tens of thousands of chunks from one file. */
export const MAX_TEXT_CHARS = 20 * 1024 * 1024;

export interface DocumentText {
  /** The file's name, as its chunks' source. */
  name: string;
  text: string;
  /** What the reader changed while reading, for the user (an HTML page's elements nested too deep, flattened). */
  notes: string[];
}

type PdfDocument = Awaited<ReturnType<(typeof import('unpdf'))['getDocumentProxy']>>;

/**
 * The pages' text one page at a time (as unpdf's extractText joins a page's
 * items), stopping once it passes what a document may hold: a small PDF
 * whose pages share one compressed stream can hold gigabytes of text, and
 * extractText would read every page at once before any limit applied.
 */
async function pagesText(pdf: PdfDocument, file: string): Promise<string> {
  const pages: string[] = [];
  let length = 0;
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const text = content.items
      .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
      .join('')
      .trim();
    page.cleanup();
    // A blank line between pages: a page end is a paragraph end for the chunker.
    length += text.length + 2;
    if (length > MAX_TEXT_CHARS) {
      throw new KnowledgeError(
        'KB_DOCUMENT_TOO_LARGE',
        `${file} has more than ${MAX_TEXT_CHARS} characters of text (reading stopped at page ${number} of ${pdf.numPages})`,
        'split it into smaller files',
      );
    }
    pages.push(text);
  }
  return pages.join('\n\n');
}

async function pdfToText(bytes: Buffer, file: string): Promise<string> {
  // pdf.js is large: loaded the first time a PDF is added, not by every process that starts a host.
  const { getDocumentProxy } = await import('unpdf');
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
    try {
      return await pagesText(pdf, file);
    } finally {
      await pdf.destroy();
    }
  } catch (error) {
    if (error instanceof KnowledgeError) throw error;
    throw new KnowledgeError(
      'KB_FILE_UNREADABLE',
      `${file} is not a PDF that can be read: ${(error as Error).message}`,
      'open it in a PDF reader to check it; a scanned PDF without a text layer has no text to add',
    );
  }
}

function fileType(file: string): (typeof KNOWLEDGE_FILE_TYPES)[number] {
  const extension = path.extname(file).toLowerCase();
  const known = KNOWLEDGE_FILE_TYPES.find((type) => type === extension);
  if (!known)
    throw new KnowledgeError(
      'KB_FILE_UNSUPPORTED',
      `${file}: a knowledge base reads ${KNOWLEDGE_FILE_TYPES.join(', ')} files, not "${extension || '(no extension)'}"`,
      'save it as text, Markdown, HTML or PDF',
    );
  return known;
}

/**
 * A document's text from a file: only a regular file is read (a FIFO or a
 * device would hang or never end), at most MAX_FILE_BYTES of it.
 */
export async function readDocumentFile(file: string): Promise<DocumentText> {
  fileType(file);
  const read = readRegularFile(file, { maxBytes: MAX_FILE_BYTES });
  if (!read.ok) throw new KnowledgeError('KB_FILE_UNREADABLE', read.message, read.hint);
  return documentFromBytes(path.basename(file), read.bytes);
}

/** A document's text from a file's bytes (an upload); `name` is the file's name, its type by its extension. */
export async function documentFromBytes(name: string, bytes: Buffer): Promise<DocumentText> {
  const type = fileType(name);
  if (bytes.length > MAX_FILE_BYTES) throw new KnowledgeError('KB_FILE_UNREADABLE', `${name} holds more than ${MAX_FILE_BYTES} bytes`, 'split it into smaller files');
  const notes: string[] = [];
  let text: string;
  if (type === '.pdf') text = await pdfToText(bytes, name);
  else {
    const utf8 = bytes.toString('utf8').replace(/^\uFEFF/, '');
    if (type === '.html' || type === '.htm') {
      const html = htmlToText(utf8);
      text = html.text;
      if (html.flattened) notes.push(`${name}: ${html.flattened} element(s) nested deeper than ${MAX_HTML_DEPTH} levels were read as text of the element above them`);
    } else text = utf8;
  }
  return { name, text: checkedText(text, name), notes };
}

/** Normalized line ends; refuses a text with nothing in it or too much. */
export function checkedText(text: string, source: string): string {
  const normalized = text.replace(/\r\n?/g, '\n');
  if (!normalized.trim()) throw new KnowledgeError('KB_DOCUMENT_EMPTY', `${source} has no text to add`, 'a scanned PDF needs OCR first; an empty file has nothing to search');
  if (normalized.length > MAX_TEXT_CHARS)
    throw new KnowledgeError('KB_DOCUMENT_TOO_LARGE', `${source} has ${normalized.length} characters of text, more than ${MAX_TEXT_CHARS}`, 'split it into smaller files');
  return normalized;
}
