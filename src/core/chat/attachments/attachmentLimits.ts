// A module of its own, with no imports: `chatos chat --help` names the limit without loading the attachment readers.

/** A file larger than this is refused before it is read (a photo from a phone or a PDF of a few hundred pages fits). */
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;
