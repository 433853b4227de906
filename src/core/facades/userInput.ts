/**
 * Reading what a person hands a face, the way the core reads it: a regular
 * file of bounded size (never a FIFO or a device), its text as JSON or
 * YAML, keys a schema does not know, and close matches for a mistyped id.
 */
export { readProblem, readRegularText, streamRegularFile } from '../files/readRegularFile.js';
export { parseByExtension } from '../problems/textFiles.js';
export { findUnknownKeys } from '../problems/unknownKeys.js';
export { suggestClosest } from '../naming/suggest.js';
